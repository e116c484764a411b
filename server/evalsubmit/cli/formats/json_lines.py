"""``--output-format json-lines``: one finding per line, each the JSON object of the ``json``
format's ``findings`` (with its ``url`` and ``fix``), as ruff's ``json-lines``. There is no
summary object: the paths that were not checked are warned about on stderr."""

from __future__ import annotations

import json

from evalsubmit.cli.formats import Report


def render(report: Report) -> str:
    from evalsubmit.cli.output import finding_json

    return "".join(
        json.dumps(finding_json(path, finding)) + "\n" for path, finding in report.findings
    )
