"""Hover latency, A/B: two evalsubmit servers (say main's and a branch's) side by side.

Both are driven over stdio by pygls's ``LanguageClient`` exactly as ``run.py`` drives them
(its ``Session``): open the 5,000-line generated job file, then per edit: the edit, its
``publishDiagnostics``, then ``--hovers`` hovers on ``submit`` tokens and runner names (the
sites ``run.py`` uses). The servers alternate edit by edit and hover by hover, so noise from
other processes hits both alike. Printed per server: median / p95 / max of the client-side
hover round trip, and the server's CPU time per hover in a hovers-only phase (no edits: what
the hover itself costs, from ``/proc/PID/stat``), and whether both answered identically.

    .venv/bin/python benchmarks/hover_ab.py --old /work/main/.venv/bin/python \
        --new .venv/bin/python [--edits 60] [--hovers 3] [--idle-hovers 300]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lsprotocol import types

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from run import ServerSpec, Session, hover_sites, make_edits, stats  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def hover_text(session: Session, uri: str, line: int, col: int) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = await session.client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=col),
        )
    )
    elapsed = time.perf_counter() - t0
    return elapsed, None if result is None else (result.contents, result.range)


async def main_async(args: argparse.Namespace) -> None:
    corpus = Path(tempfile.mkdtemp(prefix="hover-ab-"))
    path = generate.generate(corpus, tree=False)[args.size]
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    options = {"evalsubmit": {"debounceMs": 0, "logLevel": "warning"}}
    old, new = (str(Path(exe).absolute()) for exe in (args.old, args.new))
    specs = [
        ServerSpec("old", [old, "-P", "-m", "evalsubmit.lsp"], options),
        ServerSpec("new", [new, "-P", *(args.new_args or ["-m", "evalsubmit.lsp"])], options),
    ]
    sessions = [Session(spec, path.parent, corpus) for spec in specs]
    for session in sessions:
        await session.start()
    await asyncio.sleep(1.0)
    for session in sessions:
        cold = await session.open(uri, text)
        print(f"{session.spec.name}: cold {cold and cold * 1000:.0f} ms", flush=True)

    lines = text.split("\n")
    edits = make_edits(text, args.edits, seed=len(lines))
    sites = hover_sites(text, max(1, len(edits) * args.hovers + args.idle_hovers), seed=7)
    latency: dict[str, list[float | None]] = {s.spec.name: [] for s in sessions}
    first: dict[str, float] = {}
    by_kind: dict[tuple[str, str], list[float | None]] = {}
    seen: set[tuple[str, int, int]] = set()
    mismatches = 0
    site_i = 0
    for i, edit in enumerate(edits):
        edit.apply(lines)
        new_text = "\n".join(lines)
        order = sessions[i % 2 :] + sessions[: i % 2]
        for session in order:
            await session.change(uri, edit, new_text)
        for k in range(args.hovers):
            line, col = sites[site_i]
            site_i += 1
            answers = []
            for session in order if k % 2 == 0 else order[::-1]:
                elapsed, answer = await hover_text(session, uri, line, col)
                first.setdefault(session.spec.name, elapsed)
                latency[session.spec.name].append(elapsed)
                name = session.spec.name
                kind = "first after edit" if k == 0 else "later"
                kind += ", new site" if (name, line, col) not in seen else ", seen site"
                seen.add((name, line, col))
                by_kind.setdefault((name, kind), []).append(elapsed)
                answers.append(answer)
            mismatches += answers[0] != answers[1]

    # Hovers only: the server's own CPU time per hover (nothing else runs in it now).
    await asyncio.sleep(1.0)
    cpu: dict[str, float] = {}
    for session in sessions:
        before = cpu_seconds(session.pid)
        for n in range(args.idle_hovers):
            line, col = sites[site_i + n]
            await hover_text(session, uri, line, col)
        cpu[session.spec.name] = (cpu_seconds(session.pid) - before) / args.idle_hovers

    print(
        f"{len(edits)} edits x {args.hovers} hovers, {args.size}-line file; "
        f"answers that differ: {mismatches}"
    )
    for session in sessions:
        name = session.spec.name
        s = stats(latency[name])
        print(
            f"{name}: hover after edit median {s['median_ms']:.2f} ms, p95 {s['p95_ms']:.2f} ms, "
            f"max {s['max_ms']:.2f} ms, first {first[name] * 1000:.1f} ms; "
            f"idle hover CPU {cpu[name] * 1000:.2f} ms"
        )
    for (name, kind), values in sorted(by_kind.items()):
        s = stats(values)
        print(f"  {name} {kind}: n {s['n']}, median {s['median_ms']:.2f}, p95 {s['p95_ms']:.2f}")
    for session in sessions:
        await session.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="python of the baseline server's venv")
    parser.add_argument("--new", default=sys.executable, help="python of the server measured")
    parser.add_argument(
        "--new-args", nargs="+", help="what follows `python -P` for the new server (a tracer)"
    )
    parser.add_argument("--size", default="5000", choices=sorted(generate.SIZES))
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--hovers", type=int, default=3, help="hovers after each edit")
    parser.add_argument("--idle-hovers", type=int, default=300)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
