"""The analysis core: text -> findings and target previews. Imports nothing from pygls.

Public entry points::

    report = analyze_source(text, path=Path("job.py"), project=Project(root))
    report.findings            # tuple[Finding, ...]
    report.preview_at(line, col)   # TargetPreview for a runner / target= at a position
    report.submit_at(line, col)    # SubmitReport for a submit() call at a position

    analyzer = DocumentAnalyzer(path, project, options)   # one per open document
    analyzer.analyze(text)     # the same report, reusing what an edit left unchanged

    config = project_config(path)  # the nearest [tool.evalsubmit] / evalsubmit.toml
    options = configured_options(config, path)  # its rule choices for that file
"""

from evalsubmit.analysis.engine.analyze import analyze_source, installed_sdk, visible
from evalsubmit.analysis.engine.configured import (
    config_resolver,
    configured_options,
    project_config,
)
from evalsubmit.analysis.engine.document import DocumentAnalyzer
from evalsubmit.analysis.engine.options import AnalysisOptions
from evalsubmit.analysis.report import ModuleReport, Shape, SubmitReport, TargetPreview
from evalsubmit.core.findings import Edit, Finding, Fix, Severity, Span
from evalsubmit.workspace.project import Project

__all__ = [
    "AnalysisOptions",
    "DocumentAnalyzer",
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
    "config_resolver",
    "configured_options",
    "installed_sdk",
    "project_config",
    "visible",
]
