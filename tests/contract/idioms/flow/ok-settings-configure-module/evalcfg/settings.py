"""Process-wide settings, filled in once by configure() at start-up."""

REPEATS = 0
TIMEOUT_S = 0.0


def configure(repeats=3, timeout_s=120.0):
    global REPEATS, TIMEOUT_S
    REPEATS = repeats
    TIMEOUT_S = timeout_s
