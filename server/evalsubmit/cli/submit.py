"""``evalsubmit submit PATH:LINE[:COL]``: the editor's "Submit evaluation" from the command line
(notebooks, CI). The decision and the sending are the editor's own code
(:mod:`evalsubmit.platform.submission`), so the CLI refuses and sends exactly what the editor
would; this module only turns them into arguments, stderr progress, a stdout outcome and an
exit code.

Exit codes: 0 the job was accepted (completed, with ``--wait``); 1 refused by the static checks,
or the job ended in ``error``/``cancelled``/``failed``; 2 a usage or configuration error
(nothing sent); 3 the platform could not be reached or refused a request; 130 interrupted
(Ctrl-C).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.cli.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    interpreter,
    project_root,
    python_option,
)

if TYPE_CHECKING:  # the handler imports them itself: `import evalsubmit.cli` stays light
    from evalsubmit.platform import Job, JobOutcome, JobStatus, PlatformClient, PlatformError
    from evalsubmit.platform.config import ResolvedPlatformConfig
    from evalsubmit.platform.submission import Plan, Refusal, Submission

EXIT_PLATFORM = 3
"""The platform could not be reached or refused a request (distinct from 2: nothing in the
user's command or files is wrong; retrying later, or fixing the platform side, may help)."""
EXIT_INTERRUPTED = 130
NOTHING_SENT = "interrupted; nothing was sent."
NAME_A_TASKSET = "write tasks= in the call or pass --taskset WORKSPACE/TASKSET"
SOURCE_OPTION = "option {}"
OPTIONS = {"base_url": "--base-url", "workspace": "--workspace", "timeout_s": "--timeout"}
CLI_HINTS = {
    "timeout": "On the command line: --timeout S.",
    "connection_refused": "On the command line: --base-url URL.",
    "connection": "On the command line: --base-url URL.",
    "redirect": "On the command line: --base-url URL.",
}
"""The platform's messages name the editor's settings; the options that do the same here."""


def add_parser(commands: Any) -> None:
    submit = commands.add_parser(
        "submit",
        help="submit the runner or taskset submit() call at PATH:LINE to the NeMo Platform",
        description="Submit the Gym runner or taskset-shaped submit() call at PATH:LINE[:COL] as "
        "an agent-evaluate job, exactly as the editor's 'Submit evaluation' does. The platform "
        "(base URL, workspace, token) comes from the SDK's environment variables and "
        "~/.config/nmp/config.yaml; the token only from there. Exit codes: 0 accepted "
        "(completed with --wait), 1 refused or the job failed, 2 usage or configuration error, "
        "3 platform error, 130 interrupted.",
    )
    submit.add_argument(
        "location", help="PATH:LINE[:COL] or NOTEBOOK.ipynb:'cell N:LINE[:COL]' (1-based)"
    )
    submit.add_argument(
        "--taskset",
        metavar="REF",
        help="the taskset (WORKSPACE/NAME[#TAG]) when the code has no tasks=",
    )
    submit.add_argument(
        "--wait", action="store_true", help="follow the job to its end (exit 0 only if completed)"
    )
    submit.add_argument("--base-url", metavar="URL", help="the platform (default: env, nmp config)")
    submit.add_argument(
        "--workspace", metavar="NAME", help="the workspace (default: env, nmp config, the code)"
    )
    submit.add_argument(
        "--timeout",
        type=_seconds,
        metavar="S",
        help="time limit of each HTTP request, connecting to last byte (default: 30)",
    )
    submit.add_argument(
        "--poll-interval",
        type=_seconds,
        default=2.0,
        metavar="S",
        help="seconds between status polls with --wait (default: 2)",
    )
    submit.add_argument(
        "--output-format",
        choices=["text", "json"],
        default="text",
        help="stdout: one line once a job exists (text), or always one JSON object (json)",
    )
    python_option(submit)
    submit.set_defaults(handler=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not 0.1 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"expected 0.1 to 3600 seconds, got {text}")
    return value


def run(args: argparse.Namespace) -> int:
    out = Output(json_output=args.output_format == "json")
    try:
        return _run(args, out)
    except KeyboardInterrupt:  # before the event loop: reading and analysing the file
        return out.interrupted(NOTHING_SENT)


def _run(args: argparse.Namespace, out: Output) -> int:
    from evalsubmit.cli.notebooks import located

    parsed = located(args.location)
    if parsed is None:
        return out.usage("expected PATH:LINE[:COL] or NOTEBOOK.ipynb:cell N:LINE[:COL]")
    if isinstance(parsed, str):
        return out.usage(parsed)
    path, line, col, text = parsed
    if args.taskset is not None and not args.taskset.strip():
        return out.usage("--taskset: empty taskset reference")
    python = interpreter(args.python)
    if python is None:
        return EXIT_ERROR
    decided = decide(path, line, col, args.taskset, python, text)
    if isinstance(decided, str):
        return out.usage(decided)
    from evalsubmit.platform.submission import Refusal

    if isinstance(decided, Refusal):
        return out.refused(decided)
    config = platform_config(args, decided.code_workspace)
    import asyncio  # not with the parser: `check` and `--help` start without it

    return asyncio.run(_send(decided, config, args, out))


def decide(
    path: Path, line: int, col: int, taskset: str | None, python: Path, text: str | None = None
) -> Plan | Refusal | str:
    """The editor's decision for ``PATH:LINE[:COL]`` (col -1: the line's call or runner), or a
    usage error. ``text``: the module to analyse instead of the file's (a notebook's cells)."""
    from evalsubmit.analysis import Project, analyze_source, configured_options, project_config
    from evalsubmit.core.lines import split_lines
    from evalsubmit.core.sourcefile import UnreadableSource, read_source
    from evalsubmit.platform.submission import Refusal, plan, position_on_line
    from evalsubmit.workspace.config import ConfigError

    in_cell = text is not None
    if text is None:
        try:
            text = read_source(path).text
        except UnreadableSource as error:
            return f"cannot read {path}: {error.reason}"
    lines = split_lines(text)
    if not 1 <= line <= max(len(lines), 1):
        return f"{path} has {len(lines)} lines; there is no line {line}"
    try:  # the project's configuration, as `check` and the editor read it
        config = project_config(path)
    except ConfigError as error:
        return "; ".join(error.lines())
    options = configured_options(config, path)
    project = Project(project_root(path), python=python)
    # As `preview`: what the files importing this one do with its values is not analysed.
    report = analyze_source(text, path=path, project=project, options=options, reverse=False)
    if col < 0:
        found = position_on_line(report, line)
        if found is None:
            where = "on that line of the cell" if in_cell else f"on line {line}"
            return Refusal((f"no taskset submit() call or Gym runner {where}",))
        line, col = found
    return plan(
        report,
        line,
        col,
        taskset.strip() if taskset else None,
        default_taskset=config.default_taskset,
        name_a_taskset=NAME_A_TASKSET,
    )


def platform_config(args: argparse.Namespace, code_workspace: str | None) -> ResolvedPlatformConfig:
    """The server's resolution (settings > env > nmp config > code > SDK defaults), with the
    options in the settings' place; never a token from the command line."""
    from evalsubmit.platform import PlatformSettings, resolve_platform_config

    options = {"base_url": args.base_url, "workspace": args.workspace}
    chosen: dict[str, Any] = {k: v for k, v in options.items() if v is not None and v.strip()}
    if args.timeout is not None:
        chosen["timeout_s"] = args.timeout
    config = resolve_platform_config(PlatformSettings(**chosen), code_workspace=code_workspace)
    # Messages about a value name where it came from: the option, not an editor setting.
    sources = dict(config.sources)
    for key in chosen:
        sources[key] = SOURCE_OPTION.format(OPTIONS[key])
    return config.model_copy(update={"sources": sources})


async def _send(
    decided: Plan, config: ResolvedPlatformConfig, args: argparse.Namespace, out: Output
) -> int:
    import asyncio

    from evalsubmit.platform import PlatformClient, PlatformError
    from evalsubmit.platform.submission import Submission

    for warning in config.warnings:
        out.say(f"warning: {warning}")
    try:
        client = PlatformClient.from_config(config)
    except PlatformError as err:
        return out.failed(err, EXIT_ERROR)  # settings that cannot be used: nothing was sent
    if client.warning is not None:
        out.say(f"warning: {client.warning}")
    sending = Submission(decided, config, client)
    out.say(sending.describe())  # where it goes and why: what a CI log needs to explain a job
    posted: list[Job] = []
    failure: list[PlatformError] = []

    def remember(job: Job | None, err: PlatformError | None) -> None:
        posted.extend([job] if job is not None else [])
        failure.extend([err] if err is not None else [])

    async with client:
        try:
            job = await sending.send(
                step=out.say,
                cancelled=lambda: False,  # Ctrl-C arrives as the task's cancellation
                after_cancel=remember,
            )
        except PlatformError as err:
            return out.failed(err, EXIT_PLATFORM)
        except asyncio.CancelledError:
            if failure:
                return out.interrupted(f"interrupted while submitting; {failure[0].message}")
            if not posted:
                return out.interrupted(NOTHING_SENT)
            words = f"interrupted, but job {sending.name} had already been submitted."
            fields = _fields(sending, posted[0].id, posted[0].status or "created")
            return out.interrupted(f"{words} {_how_to_cancel(sending)}", fields)
        assert job is not None  # `cancelled` never says so
        out.say(f"job {job.name} created in workspace {sending.workspace}: {sending.url}")
        if not args.wait:
            return out.accepted(sending, job.id, job.status or "created")
        return await _follow(client, sending, job.id, args.poll_interval, out)


def _how_to_cancel(sending: Submission) -> str:
    return (
        f"It exists on the platform and keeps running: {sending.url}. Cancel it with: "
        f"curl -X POST {sending.url}/cancel (add your token as -H 'Authorization: Bearer ...' "
        "if the platform needs one)."
    )


async def _follow(
    client: PlatformClient, sending: Submission, job_id: str | None, interval: float, out: Output
) -> int:
    import asyncio

    from evalsubmit.platform import PlatformError, follow_job, job_outcome
    from evalsubmit.platform.follow import DEFAULT_FOLLOW_LIMIT_S
    from evalsubmit.platform.submission import state_words

    started, last = time.monotonic(), "created"
    final: JobStatus | None = None
    try:
        async for final in follow_job(
            client, sending.workspace, sending.name, interval, limit_s=DEFAULT_FOLLOW_LIMIT_S
        ):
            last = final.status
            elapsed = time.monotonic() - started
            out.say(f"[{elapsed:6.1f}s] job {sending.name}: {state_words(final)}")
        if final is None:  # follow_job always yields the first status; never a silent success
            raise PlatformError("bad_response", "the platform gave no status for the job")
        outcome = await job_outcome(client, sending.workspace, final)
    except PlatformError as err:
        out.say(f"job {sending.name} was submitted, but {err.message}")
        return out.unfollowed(sending, job_id, last, err.message)
    except asyncio.CancelledError:
        words = f"stopped following job {sending.name} ({last})."
        fields = _fields(sending, job_id, last)
        return out.interrupted(f"{words} {_how_to_cancel(sending)}", fields)
    return out.outcome(sending, job_id, outcome)


class Output:
    """stderr for progress and reasons; stdout for the result: one line when a job exists, or,
    with ``--output-format json``, one JSON object whatever happened (a refusal included)."""

    def __init__(self, *, json_output: bool) -> None:
        self.json_output = json_output

    def say(self, message: str) -> None:
        # Plain lines, flushed: readable in CI logs and when stderr is not a terminal.
        print(f"evalsubmit: {message}", file=sys.stderr, flush=True)

    def _result(self, line: str | None, fields: dict[str, Any]) -> None:
        if self.json_output:
            print(json.dumps(fields), flush=True)
        elif line is not None:
            print(line, flush=True)

    def usage(self, message: str) -> int:
        self.say(message)
        return EXIT_ERROR

    def refused(self, refusal: Refusal) -> int:
        for reason in refusal.reasons:
            self.say(f"not submitted: {reason}")
        self._result(None, {"submitted": False, "reasons": list(refusal.reasons)})
        return EXIT_FINDINGS

    def failed(self, err: PlatformError, code: int) -> int:
        hint = CLI_HINTS.get(err.kind.value)
        message = f"{err.message} {hint}" if hint else err.message
        self.say(message)
        fields = {"submitted": False, "error": message, "kind": err.kind.value}
        self._result(None, fields)
        return code

    def accepted(self, sending: Submission, job_id: str | None, status: str) -> int:
        where = f"Job {sending.name} (workspace {sending.workspace})"
        line = f"{where} submitted: {status}. URL: {sending.url}"
        self._result(line, _fields(sending, job_id, status))
        return EXIT_CLEAN

    def unfollowed(self, sending: Submission, job_id: str | None, status: str, error: str) -> int:
        """Polling failed before the job ended: the job exists, its end is unknown."""
        where = f"Job {sending.name} (workspace {sending.workspace})"
        line = f"{where}: {status}, end unknown. URL: {sending.url}"
        self._result(line, {**_fields(sending, job_id, status), "error": error})
        return EXIT_PLATFORM

    def interrupted(self, message: str, job: dict[str, Any] | None = None) -> int:
        """Ctrl-C: ``job`` when one exists (its URL is then the stdout line)."""
        self.say(message)
        fields = {**(job or {"submitted": False}), "interrupted": True}
        line = None if job is None else f"Job {job['name']}: {job['status']}. URL: {job['url']}"
        self._result(line, fields)
        return EXIT_INTERRUPTED

    def outcome(self, sending: Submission, job_id: str | None, outcome: JobOutcome) -> int:
        for log_line in outcome.log_tail:
            print(f"  {log_line}", file=sys.stderr)
        fields = {
            **_fields(sending, job_id, outcome.status),
            "details": outcome.details,
            "error": outcome.error,
        }
        self._result(outcome.message(include_logs=False), fields)
        return EXIT_CLEAN if outcome.succeeded else EXIT_FINDINGS


def _fields(sending: Submission, job_id: str | None, status: str) -> dict[str, Any]:
    return {
        "submitted": True,
        "name": sending.name,
        "id": job_id,
        "workspace": sending.workspace,
        "tasks": sending.plan.tasks,
        "status": status,
        "url": sending.url,
    }
