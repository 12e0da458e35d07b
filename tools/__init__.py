"""Development tools: synthetic frames for fixtures and benchmarks (not shipped code)."""
