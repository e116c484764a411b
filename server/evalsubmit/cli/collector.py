"""Python's cyclic garbage collector while ``evalsubmit check`` starts.

Start-up allocates what lives until the process ends (modules, classes, tables, the relevance
scan's graph): the collector's passes over it find nothing to free (docs/benchmarks.md, "CLI
start-up and the real repo", has what they cost). It is paused from the start of ``check`` until the
first analysis has run (it builds the project's index of which files may reach a module, which
lives to the end too; a pass right after it traversed all of that to free the little the
analysis left behind, which now stays: one analysis's leftovers, once per run); what exists
then is frozen (never traversed again, and shared, not copied, by forked workers), and the
collector resumes for the other analyses (each of which pauses it while it runs:
:mod:`evalsubmit.core.collection`). (The server's higher thresholds, tried here
too, did not lower the collector's share of a 50-file check.)
"""

from __future__ import annotations

import gc

_paused = False


def pause_for_start_up() -> None:
    """Pause the collector (unless the host turned it off itself: then it stays off)."""
    global _paused
    if gc.isenabled():
        _paused = True
        gc.disable()


def resume(*, freeze: bool = True) -> None:
    """Start-up is over: freeze what it made (unless the command ends before any analysis, on a
    configuration error say) and resume the collector (once)."""
    global _paused
    if _paused:
        _paused = False
        if freeze:
            gc.freeze()
        gc.enable()
