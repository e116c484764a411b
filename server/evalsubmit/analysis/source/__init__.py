"""Source text to syntax trees, tolerant of half-typed code, one top-level statement at a time."""
