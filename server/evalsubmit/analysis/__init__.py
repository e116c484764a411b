"""The analysis core: text -> findings and target previews. Imports nothing from pygls.

Public entry points::

    report = analyze_source(text, path=Path("job.py"), project=Project(root))
    notebook = analyze_notebook(cells, path=Path("nb.ipynb"), project=Project(root))
    notebook.findings          # tuple[CellFinding, ...]: the cell and cell-relative spans
    report.findings            # tuple[Finding, ...]
    report.preview_at(line, col)   # TargetPreview for a runner / target= at a position
    report.submit_at(line, col)    # SubmitReport for a submit() call at a position

    analyzer = DocumentAnalyzer(path, project, options)   # one per open document
    analyzer.analyze(text)     # the same report, reusing what an edit left unchanged

    config = project_config(path)  # the nearest [tool.evalsubmit] / evalsubmit.toml
    options = configured_options(config, path)  # its rule choices for that file

Its names are loaded on first use (PEP 562): importing a light part of it
(``evalsubmit.analysis.engine.options``) does not load the interpreter and the rules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalsubmit.analysis.engine.analyze import analyze_source
    from evalsubmit.analysis.engine.configured import (
        config_resolver,
        configured_options,
        project_config,
    )
    from evalsubmit.analysis.engine.document import DocumentAnalyzer
    from evalsubmit.analysis.engine.notebook import CellFinding, NotebookReport, analyze_notebook
    from evalsubmit.analysis.engine.options import AnalysisOptions
    from evalsubmit.analysis.report import ModuleReport, Shape, SubmitReport, TargetPreview
    from evalsubmit.core.findings import Edit, Finding, Fix, Severity, Span
    from evalsubmit.workspace.project import Project, installed_sdk

_HOMES = {
    "analyze_source": "evalsubmit.analysis.engine.analyze",
    "config_resolver": "evalsubmit.analysis.engine.configured",
    "configured_options": "evalsubmit.analysis.engine.configured",
    "project_config": "evalsubmit.analysis.engine.configured",
    "DocumentAnalyzer": "evalsubmit.analysis.engine.document",
    "AnalysisOptions": "evalsubmit.analysis.engine.options",
    "CellFinding": "evalsubmit.analysis.engine.notebook",
    "NotebookReport": "evalsubmit.analysis.engine.notebook",
    "analyze_notebook": "evalsubmit.analysis.engine.notebook",
    "ModuleReport": "evalsubmit.analysis.report",
    "Shape": "evalsubmit.analysis.report",
    "SubmitReport": "evalsubmit.analysis.report",
    "TargetPreview": "evalsubmit.analysis.report",
    "Edit": "evalsubmit.core.findings",
    "Finding": "evalsubmit.core.findings",
    "Fix": "evalsubmit.core.findings",
    "Severity": "evalsubmit.core.findings",
    "Span": "evalsubmit.core.findings",
    "Project": "evalsubmit.workspace.project",
    "installed_sdk": "evalsubmit.workspace.project",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "AnalysisOptions",
    "CellFinding",
    "DocumentAnalyzer",
    "Edit",
    "Finding",
    "Fix",
    "ModuleReport",
    "NotebookReport",
    "Project",
    "Severity",
    "Shape",
    "Span",
    "SubmitReport",
    "TargetPreview",
    "analyze_notebook",
    "analyze_source",
    "config_resolver",
    "configured_options",
    "installed_sdk",
    "project_config",
]
