"""Search backends: each builds its requests, sends them through the HTTP layer, parses replies."""
