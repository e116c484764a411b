"""Models of what the interpreter cannot read: the standard library and the user's classes."""
