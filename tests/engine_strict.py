"""Engine tests fail when the engine does.

In production an engine bug costs one statement (or one group's findings) and is only
recorded in ``ModuleReport.internal_errors``. A test that looks at findings alone would then
pass against an engine that raises on every statement: every "not diagnosed" case would.
So every in-process analysis of these suites runs strict: an internal error raises
``EngineFailure`` and fails the test. A test that injects an engine bug on purpose says so
with ``@pytest.mark.engine_bugs_expected``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from evalsubmit.analysis.report import strict_internal_errors


@pytest.fixture(autouse=True)
def _strict_engine(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("engine_bugs_expected"):
        yield
        return
    with strict_internal_errors():
        yield
