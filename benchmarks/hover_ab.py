"""Hover latency, A/B: two evalsubmit servers (say main's and a branch's) side by side.

Both are driven over stdio by pygls's ``LanguageClient`` exactly as ``run.py`` drives them
(its ``Session``): open the generated 5,000-line job file, then per edit: the edit, its
``publishDiagnostics``, then ``--hovers`` hovers on ``submit`` tokens and runner names (the
sites ``run.py`` uses). The servers alternate edit by edit and hover by hover, so noise from
other processes hits both alike. Each session is repeated ``--sessions`` times, each time
with the other server first (the client's own first-hover costs land on whichever goes first).

Per server: the client-side round trip of each hover (median, p95, and the session's first
hover apart: ``run.py`` takes one hover per edit over 10 edits, so its p95 is its slowest, the
first), and the CPU time the server's main thread (the event loop: every hover runs there)
spent during it, from ``/proc/PID/task/PID/schedstat`` (nanoseconds; a loaded machine barely
moves it). Both servers must give the same answers.

    .venv/bin/python benchmarks/hover_ab.py --old /work/main/.venv/bin/python \\
        --new .venv/bin/python [--sessions 4] [--edits 30] [--hovers 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from run import ServerSpec, Session, hover_sites, make_edits  # noqa: E402


def loop_cpu_ns(pid: int) -> int:
    """CPU time of the process's main thread so far (the server's event loop)."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0])


@dataclass
class Samples:
    first_ms: list[float] = field(default_factory=list)
    first_cpu_ms: list[float] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)


async def hover(session: Session, uri: str, line: int, col: int) -> tuple[float, float, Any]:
    """(round trip ms, server main-thread CPU ms, the answer)."""
    cpu0 = loop_cpu_ns(session.pid)
    t0 = time.perf_counter()
    result = await session.client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=col),
        )
    )
    elapsed = (time.perf_counter() - t0) * 1000
    cpu = (loop_cpu_ns(session.pid) - cpu0) / 1e6
    return elapsed, cpu, None if result is None else (result.contents, result.range)


async def one_session(
    args: argparse.Namespace, specs: list[ServerSpec], path: Path, samples: dict[str, Samples]
) -> int:
    """One session of every server; returns how many answers differed."""
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    sessions = [Session(spec, path.parent, path.parent.parent) for spec in specs]
    for session in sessions:
        await session.start()
    await asyncio.sleep(1.0)
    for session in sessions:
        await session.open(uri, text)
    await asyncio.sleep(0.5)
    lines = text.split("\n")
    edits = make_edits(text, args.edits, seed=len(lines))
    sites = hover_sites(text, len(edits) * args.hovers, seed=len(lines))
    mismatches = 0
    for i, edit in enumerate(edits):
        edit.apply(lines)
        new_text = "\n".join(lines)
        order = sessions[i % 2 :] + sessions[: i % 2]
        for session in order:
            await session.change(uri, edit, new_text)
        for k in range(args.hovers):
            line, col = sites[i * args.hovers + k]
            answers = []
            for session in order if k % 2 == 0 else order[::-1]:
                elapsed, cpu, answer = await hover(session, uri, line, col)
                into = samples[session.spec.name]
                if i == 0 and k == 0:
                    into.first_ms.append(elapsed)
                    into.first_cpu_ms.append(cpu)
                else:
                    into.ms.append(elapsed)
                    into.cpu_ms.append(cpu)
                answers.append(answer)
            mismatches += answers[0] != answers[1]
    for session in sessions:
        await session.stop()
    return mismatches


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


async def main_async(args: argparse.Namespace) -> None:
    corpus = Path(tempfile.mkdtemp(prefix="hover-ab-"))
    path = generate.generate(corpus, tree=False)[args.size]
    options = {"evalsubmit": {"debounceMs": 0, "logLevel": "warning"}}
    old, new = (str(Path(exe).absolute()) for exe in (args.old, args.new))
    specs = [
        ServerSpec("old", [old, "-P", "-m", "evalsubmit.lsp"], options),
        ServerSpec("new", [new, "-P", *(args.new_args or ["-m", "evalsubmit.lsp"])], options),
    ]
    samples = {spec.name: Samples() for spec in specs}
    mismatches = 0
    for n in range(args.sessions):
        mismatches += await one_session(args, specs[n % 2 :] + specs[: n % 2], path, samples)
        print(f"session {n + 1}/{args.sessions} done", flush=True)
    print(
        f"{args.sessions} sessions x {args.edits} edits x {args.hovers} hovers, "
        f"{args.size}-line file; answers that differ: {mismatches}"
    )
    print("server | hover ms median | p95 | first hovers ms | loop CPU ms median | p95 | first")
    for name, s in samples.items():
        firsts = " ".join(f"{v:.1f}" for v in s.first_ms)
        first_cpu = " ".join(f"{v:.2f}" for v in s.first_cpu_ms)
        print(
            f"{name} | {statistics.median(s.ms):.2f} | {p95(s.ms):.2f} | {firsts} | "
            f"{statistics.median(s.cpu_ms):.2f} | {p95(s.cpu_ms):.2f} | {first_cpu}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="python of the baseline server's venv")
    parser.add_argument("--new", default=sys.executable, help="python of the server measured")
    parser.add_argument(
        "--new-args", nargs="+", help="what follows `python -P` for the new server (a tracer)"
    )
    parser.add_argument("--size", default="5000", choices=sorted(generate.SIZES))
    parser.add_argument("--sessions", type=int, default=4)
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--hovers", type=int, default=3, help="hovers after each edit")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
