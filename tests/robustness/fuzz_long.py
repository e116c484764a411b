"""The long fuzz run of the analysis core (issue 6): at least 100,000 inputs.

    python -m tests.robustness.fuzz_long [--inputs 100000] [--workers 2] [--seed 0]
    python -m tests.robustness.fuzz_long --metamorphic 8 [--programs 2000] [--seed 0]

(or ``scripts/fuzz.sh``). Runs every strategy of :mod:`tests.robustness.inputs` with
hypothesis, plus the truncation of every example at every offset, in worker processes; prints
progress, the counts per kind, the slowest input and every failure. Exit status 1 when the
engine raised or returned a malformed report for any input.

``--metamorphic N`` runs the metamorphic tests (issue 31, ``tests/unit/test_metamorphic.py``)
in their long mode instead: every site of every corpus file once, then ``--programs`` generated
programs for each of N seeds (``--seed`` .. ``--seed + N - 1``), in ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from .inputs import (
    REPO,
    TARGET_S,
    Case,
    Stats,
    analyse,
    decoded_files,
    example_files,
    generated_python,
    mutated_examples,
    odd_encodings,
    random_bytes,
    sdk_programs,
    truncations,
)

STRATEGIES: dict[str, Callable[[], st.SearchStrategy[Case]]] = {
    "python": generated_python,
    "sdk": sdk_programs,
    "mutation": mutated_examples,
    "bytes": random_bytes,
    "encoding": odd_encodings,
    "decoded": decoded_files,
}
# Shares of the generated inputs (the truncations of every example come on top).
# hypothesmith (python) and our SDK grammar are slow to generate (~0.3-0.5 s per input).
SHARES = {
    "mutation": 0.45,
    "bytes": 0.2,
    "encoding": 0.2,
    "decoded": 0.1,
    "sdk": 0.04,
    "python": 0.01,
}
CHUNK = 2000


@dataclass
class ChunkResult:
    label: str
    stats: Stats
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_strategy(name: str, count: int, chunk_seed: int) -> ChunkResult:
    stats = Stats()
    failures: list[str] = []
    start = time.perf_counter()

    @seed(chunk_seed)
    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )
    @given(STRATEGIES[name]())
    def run(case: Case) -> None:
        analyse(case, stats)

    try:
        run()
    except Exception as exc:  # reported; the run goes on
        failures.append(f"{name} (seed {chunk_seed}):\n" + "".join(traceback.format_exception(exc)))
    return ChunkResult(f"{name} x{count}", stats, failures, time.perf_counter() - start)


def run_truncations(path_text: str, start: int, stop: int) -> ChunkResult:
    path = Path(path_text)
    stats = Stats()
    failures: list[str] = []
    began = time.perf_counter()
    for case in truncations(path)[start:stop]:
        try:
            analyse(case, stats)
        except Exception as exc:
            failures.append(
                f"truncation of {path.name} at {len(case.text)}:\n"
                + "".join(traceback.format_exception(exc))
            )
    label = f"truncations of {path.relative_to(REPO)} [{start}:{stop}]"
    return ChunkResult(label, stats, failures, time.perf_counter() - began)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.robustness.fuzz_long")
    parser.add_argument("--inputs", type=int, default=100_000, help="generated inputs in all")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-truncations", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--metamorphic", type=int, metavar="SEEDS", help="see the docstring")
    parser.add_argument("--programs", type=int, default=2000)
    args = parser.parse_args(argv)
    if args.metamorphic:
        return metamorphic(args.metamorphic, args.programs, args.seed, args.workers)

    jobs: list[tuple[Callable[..., ChunkResult], tuple[object, ...]]] = []
    generated = args.inputs
    if not args.no_truncations:
        for path in example_files():
            size = len(path.read_text(encoding="utf-8")) + 1
            for start in range(0, size, CHUNK):
                jobs.append((run_truncations, (str(path), start, min(size, start + CHUNK))))
        truncation_count = sum(len(p.read_text(encoding="utf-8")) + 1 for p in example_files())
        generated = max(0, args.inputs - truncation_count)
    n = 0
    counts = {name: int(generated * share) for name, share in SHARES.items()}
    counts["mutation"] += generated - sum(counts.values())  # exactly `generated` in all
    for name, remaining in counts.items():
        while remaining > 0:
            count = min(CHUNK, remaining)
            jobs.append((run_strategy, (name, count, args.seed * 1_000_003 + n)))
            remaining -= count
            n += 1

    total = Stats()
    failures: list[str] = []
    began = time.perf_counter()
    print(f"fuzzing the analysis core: {len(jobs)} chunks on {args.workers} worker(s)", flush=True)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = {pool.submit(fn, *fn_args): fn_args for fn, fn_args in jobs}
        for future in as_completed(futures):
            result = future.result()
            total.merge(result.stats)
            failures += result.failures
            print(
                f"[{time.perf_counter() - began:7.1f}s] {result.label}: {result.stats.count} "
                f"inputs in {result.seconds:.1f}s, slowest {1000 * result.stats.max_s:.0f} ms"
                f"{', FAILED' if result.failures else ''} (total {total.count})",
                flush=True,
            )
    elapsed = time.perf_counter() - began
    print("\n== fuzz summary ==")
    print(total.summary())
    alone_ms = None
    if total.slowest is not None:  # the workers shared the machine: time the slowest again
        runs = []
        for _ in range(3):
            one = Stats()
            analyse(total.slowest, one)
            runs.append(one.max_s)
        alone_ms = 1000 * min(runs)
        print(f"slowest input re-timed alone (best of 3): {alone_ms:.1f} ms")
    print(f"wall time: {elapsed:.0f} s; failures: {len(failures)}")
    for failure in failures:
        print("\n" + failure)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "inputs": total.count,
                    "kinds": dict(total.kinds),
                    "skipped": dict(total.skipped),
                    "findings": total.findings,
                    "mean_ms": 1000 * total.total_s / max(1, total.count),
                    "max_ms": 1000 * total.max_s,
                    "over_target": total.over_target,
                    "target_s": TARGET_S,
                    "slowest": total.slowest.describe(400) if total.slowest else None,
                    "slowest_text": total.slowest.text if total.slowest else None,
                    "slowest_alone_ms": alone_ms,
                    "wall_s": elapsed,
                    "failures": failures,
                },
                indent=2,
            )
        )
    return 1 if failures else 0


def _metamorphic_run(selection: str, seed_value: int, programs: int) -> tuple[str, int, str]:
    env = {
        **os.environ,
        "EVALSUBMIT_METAMORPHIC_LONG": "1",
        "EVALSUBMIT_METAMORPHIC_SEED": str(seed_value),
        "EVALSUBMIT_METAMORPHIC_PROGRAMS": str(programs),
    }
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    test = "tests/unit/test_metamorphic.py"
    done = subprocess.run(
        [*command, test, "-k", selection], cwd=REPO, env=env, capture_output=True, text=True
    )
    return f"{selection} (seed {seed_value})", done.returncode, done.stdout[-20000:]


def metamorphic(seeds: int, programs: int, first: int, workers: int) -> int:
    jobs = [("not generated", first, programs)] + [
        ("generated_programs", first + n, programs) for n in range(seeds)
    ]
    failed = 0
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_metamorphic_run, *job) for job in jobs]
        for future in as_completed(futures):
            label, code, output = future.result()
            failed += code != 0
            tail = output.strip().splitlines()[-1] if output.strip() else ""
            print(f"[{time.perf_counter() - began:7.1f}s] {label}: {tail}", flush=True)
            if code != 0:
                print(output)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
