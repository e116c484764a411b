"""Client of the NeMo Platform for evalsubmit's "Submit evaluation" (httpx; no pygls).

Public API:
    resolve_platform_config(overrides, *, code_workspace=None, env=None, config_path=None)
        -> ResolvedPlatformConfig
    PlatformClient(base_url, *, token=None, timeout_s=30.0, ...) / PlatformClient.from_config(cfg)
    follow_job(client, workspace, name, poll_interval_s=2.0) -> AsyncIterator[JobStatus]
    build_submission_body(target, tasks, name) -> dict;  new_job_name() -> str
    job_outcome(client, workspace, final_status, log_lines=20) -> JobOutcome (.message())
    PlatformError(kind, message, status_code=None, detail=None)
"""

from evalsubmit.sdk.grammar import (
    JOB_NAME_PATTERN,
    TasksetRefParts,
    is_valid_job_name,
    parse_taskset_ref,
)
from evalsubmit.sdk.spec import SPEC_DEFAULTS

from .body import build_submission_body, new_job_name
from .client import PlatformClient
from .config import PlatformSettings, ResolvedPlatformConfig, resolve_platform_config
from .errors import PlatformError, PlatformErrorKind, summarize_detail
from .follow import follow_job
from .models import TERMINAL_STATUSES, Job, JobStatus, Taskset
from .outcome import JobOutcome, extract_error, job_outcome

__all__ = [
    "JOB_NAME_PATTERN",
    "SPEC_DEFAULTS",
    "TERMINAL_STATUSES",
    "Job",
    "JobOutcome",
    "JobStatus",
    "PlatformClient",
    "PlatformError",
    "PlatformErrorKind",
    "PlatformSettings",
    "ResolvedPlatformConfig",
    "Taskset",
    "TasksetRefParts",
    "build_submission_body",
    "extract_error",
    "follow_job",
    "is_valid_job_name",
    "job_outcome",
    "new_job_name",
    "parse_taskset_ref",
    "resolve_platform_config",
    "summarize_detail",
]
