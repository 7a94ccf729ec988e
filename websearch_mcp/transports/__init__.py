"""Transports: how messages reach the pipeline (stdio lines, HTTP requests) and how replies leave."""
