"""Where evalsubmit spends the edit path: cProfile of what the server runs per didChange.

The server's edit path is ``analyze_source(full_text, path=, project=, options=)`` in a worker
thread (lsp/diagnostics.py ``_analyze``) after pygls applied the change. This replays the
benchmark's edits on a generated file in-process, with the same call and a Project whose
overlay holds the edited text, and prints the hottest functions plus a split by phase.

    .venv/bin/python benchmarks/profile_edit.py [--size 5000] [--edits 20] [--top 30]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from edits import typing_trace  # noqa: E402
from run import RESULTS, make_edits  # noqa: E402

from evalsubmit.analysis import AnalysisOptions, Project, analyze_source  # noqa: E402
from evalsubmit.analysis.engine.analyze import with_remote_findings  # noqa: E402
from evalsubmit.analysis.interp.interpreter import Interpreter  # noqa: E402
from evalsubmit.analysis.interp.modules import ModuleResolver  # noqa: E402
from evalsubmit.analysis.source.parse import parse_source  # noqa: E402

try:  # the engine's per-document caches (landing while this harness was written)
    from evalsubmit.analysis import DocumentAnalyzer
except ImportError:  # pragma: no cover
    DocumentAnalyzer = None  # type: ignore[assignment,misc]


def phases(text: str, path: Path, project: Project) -> dict[str, float]:
    """Wall time of each phase of one analysis (parse, interpret, rules+report, reverse)."""
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    parsed = parse_source(text)
    out["parse_source"] = time.perf_counter() - t0
    assert parsed is not None
    t0 = time.perf_counter()
    interp = Interpreter(
        parsed,
        path=path.resolve(),
        module_name=project.module_name(path.resolve()),
        resolver=ModuleResolver.of(project),
        collect=True,
    )
    interp.run_module()
    out["interpret"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    report = analyze_source(text, path=path, project=project, options=AnalysisOptions())
    out["analyze_source (total)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    with_remote_findings(report, text, path=path, project=project, options=AnalysisOptions())
    out["reverse (importers scan)"] = time.perf_counter() - t0
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="5000", choices=list(generate.SIZES))
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument(
        "--incremental",
        action="store_true",
        help="profile DocumentAnalyzer.analyze (the engine's cached path) instead of the plain "
        "analyze_source the server calls today",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="replay the typing trace (Enter, paste, join, ...: edits that shift lines) "
        "through DocumentAnalyzer.analyze, print the median per kind, and profile that",
    )
    parser.add_argument(
        "--kinds",
        default="",
        help="with --trace: the comma-separated kinds of edit to profile (default: every kind "
        "that shifts lines, i.e. all but `type`)",
    )
    args = parser.parse_args()
    corpus = generate.generate(RESULTS / "corpus", tree=False)
    path = corpus[args.size]
    text = path.read_text(encoding="utf-8")
    project = Project(path.parent)
    options = AnalysisOptions()
    if args.trace:
        profile_trace(text, path, project, options, args.top, args.kinds)
        return
    analyze_source(text, path=path, project=project, options=options)  # warm: sibling cached

    lines = text.split("\n")
    texts = []
    for edit in make_edits(text, args.edits, seed=len(lines)):
        edit.apply(lines)
        texts.append("\n".join(lines))

    split: dict[str, list[float]] = {}
    for t in texts[:6]:
        project.set_overlay(path, t)
        for k, v in phases(t, path, project).items():
            split.setdefault(k, []).append(v)
    print(f"phases, median of {len(texts[:6])} edits ({path.name}):")
    for k, v in split.items():
        print(f"  {k:<28} {statistics.median(v) * 1000:8.1f} ms")

    # The two edit paths side by side, interleaved, without the profiler.
    analyzer = DocumentAnalyzer(path, project, options) if DocumentAnalyzer else None
    if analyzer is not None:
        project.set_overlay(path, text)
        analyzer.analyze(text)  # first analysis fills the caches
    plain: list[float] = []
    cached: list[float] = []
    for t in texts:
        project.set_overlay(path, t)
        t0 = time.perf_counter()
        analyze_source(t, path=path, project=project, options=options)
        plain.append(time.perf_counter() - t0)
        if analyzer is not None:
            t0 = time.perf_counter()
            analyzer.analyze(t)
            cached.append(time.perf_counter() - t0)
    print(
        f"\nper edit, median of {len(texts)}: analyze_source (no caches) "
        f"{statistics.median(plain) * 1000:.1f} ms",
        end="",
    )
    if cached:
        c = analyzer.caches if analyzer else None
        print(
            f"; DocumentAnalyzer.analyze {statistics.median(cached) * 1000:.1f} ms "
            f"(last edit: {c.walked} groups walked, {c.reused} reused; chunk cache "
            f"{c.chunks.hits} hits / {c.chunks.misses} misses)"
            if c
            else ""
        )
    else:
        print()

    gc_time = [0.0]
    started = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            gc_time[0] += time.perf_counter() - started[0]

    gc.callbacks.append(on_gc)
    profiler = cProfile.Profile()
    t0 = time.perf_counter()
    profiler.enable()
    for t in texts:
        project.set_overlay(path, t)
        if args.incremental and analyzer is not None:
            analyzer.analyze(t)
        else:
            analyze_source(t, path=path, project=project, options=options)
    profiler.disable()
    total = time.perf_counter() - t0
    gc.callbacks.remove(on_gc)
    print(
        f"\n{len(texts)} edits: {total / len(texts) * 1000:.1f} ms per analysis under cProfile; "
        f"garbage collector {gc_time[0] / len(texts) * 1000:.1f} ms per analysis"
    )
    stream = io.StringIO()
    stats = pstats.Stats(profiler, stream=stream).strip_dirs()
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)
    print(stream.getvalue())
    mode = "incremental" if args.incremental else "plain"
    out = RESULTS / f"profile-edit-{args.size}-{mode}.prof"
    profiler.dump_stats(out)
    print(f"profile: {out}")


def profile_trace(
    text: str, path: Path, project: Project, options: AnalysisOptions, top: int, kinds: str = ""
) -> None:
    """The typing trace through the server's cached path: per-kind medians, then cProfile."""
    lines = text.split("\n")
    texts: list[tuple[str, str]] = []
    for edit in typing_trace(text):
        edit.apply(lines)
        texts.append((edit.kind, "\n".join(lines)))
    analyzer = DocumentAnalyzer(path, project, options)
    project.set_overlay(path, text)
    analyzer.analyze(text, reverse=False)
    times: dict[str, list[float]] = {}
    for _ in range(2):
        for kind, t in texts:
            project.set_overlay(path, t)
            t0 = time.perf_counter()
            analyzer.analyze(t, reverse=False)
            times.setdefault(kind, []).append(time.perf_counter() - t0)
    print(f"typing trace, {len(texts)} edits x 2, DocumentAnalyzer.analyze (ms median / max):")
    for kind, values in times.items():
        print(f"  {kind:<14} {statistics.median(values) * 1000:7.1f} / {max(values) * 1000:7.1f}")
    wanted = set(kinds.split(",")) if kinds else None
    shifting = [(k, t) for k, t in texts if (k in wanted if wanted else k != "type")]
    profiler = cProfile.Profile()
    profiler.enable()
    for _, t in shifting:
        project.set_overlay(path, t)
        analyzer.analyze(t, reverse=False)
    profiler.disable()
    stream = io.StringIO()
    stats = pstats.Stats(profiler, stream=stream).strip_dirs()
    print(f"\ncProfile of {len(shifting)} edits of the trace (totals; divide per edit):")
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    print(stream.getvalue())


if __name__ == "__main__":
    main()
