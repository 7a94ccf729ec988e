"""Fetching pages safely: address checks, redirects, caps, character sets, cache, parallelism."""
