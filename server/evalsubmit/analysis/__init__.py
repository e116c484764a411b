"""The analysis core: text -> findings and target previews. Imports nothing from pygls.

Public entry points::

    report = analyze_source(text, path=Path("job.py"), project=Project(root))
    report.findings            # tuple[Finding, ...]
    report.preview_at(line, col)   # TargetPreview for a runner / target= at a position
    report.submit_at(line, col)    # SubmitReport for a submit() call at a position
"""

from evalsubmit.analysis.engine import AnalysisOptions, analyze_source
from evalsubmit.analysis.findings import Edit, Finding, Fix, Severity, Span
from evalsubmit.analysis.project import Project
from evalsubmit.analysis.report import ModuleReport, Shape, SubmitReport, TargetPreview

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
