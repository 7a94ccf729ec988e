"""Search engines: one module each, on the skeleton in base.py, listed once in table.py."""
