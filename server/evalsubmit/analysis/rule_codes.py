"""The codes of the rules, without the rule registry.

The registry (:mod:`evalsubmit.analysis.rules`) loads every rule, and with them the
interpreter: a configuration file's ``select``/``ignore`` and the command line's
``--select``/``--ignore`` are checked against these codes instead, so that a check of a file
the analysis never reads does not load it. A unit test keeps them the registry's.
"""

from __future__ import annotations

RULE_CODES = frozenset(
    {
        "ES100",
        "ES101",
        "ES102",
        "ES103",
        "ES104",
        "ES105",
        "ES106",
        "ES107",
        "ES108",
        "ES109",
        "ES110",
        "ES111",
        "ES190",
        "ES191",
    }
)
