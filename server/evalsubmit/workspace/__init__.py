"""The user's files: which ones to check (the walk), how to read them (overlays win over the
disk), and what their module names are. Never imports or runs them."""
