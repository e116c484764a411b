"""The analysis core: text -> findings and target previews. Imports nothing from pygls.

Public entry points::

    report = analyze_source(text, path=Path("job.py"), project=Project(root))
    report.findings            # tuple[Finding, ...]
    report.preview_at(line, col)   # TargetPreview for a runner / target= at a position
    report.submit_at(line, col)    # SubmitReport for a submit() call at a position
"""

from evalsubmit.analysis.engine.analyze import AnalysisOptions, analyze_source
from evalsubmit.analysis.report import ModuleReport, Shape, SubmitReport, TargetPreview
from evalsubmit.core.findings import Edit, Finding, Fix, Severity, Span
from evalsubmit.workspace.project import Project

__all__ = [
    "AnalysisOptions",
    "Edit",
    "Finding",
    "Fix",
    "ModuleReport",
    "Project",
    "Severity",
    "Shape",
    "Span",
    "SubmitReport",
    "TargetPreview",
    "analyze_source",
]
