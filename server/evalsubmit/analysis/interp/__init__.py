"""The abstract interpreter: walks statements in flow order, evaluates expressions and calls,
resolves imports by reading (never importing) modules, and records the facts rules read."""
