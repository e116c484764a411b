"""``evalsubmit check`` analyses the files the relevance scan finds while it is still reading the
rest (:meth:`RelevanceScan.stream`), in worker processes fed batches that shrink as the work
runs out (:mod:`evalsubmit.cli.workers`). Neither may change a result: the pool, one process
and the scan's order all give the same report."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest
from test_relevance import IRRELEVANT, SDK, TREE, cli, write_tree

from evalsubmit.cli.workers import MAX_BATCH, batch_size, in_workers
from evalsubmit.workspace.project import Project
from evalsubmit.workspace.relevance import RelevanceScan
from evalsubmit.workspace.walk import python_files


def test_files_naming_the_sdk_come_first_in_the_order_given(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "t", TREE)
    files = sorted(python_files([root]))
    scan = RelevanceScan(Project(root, python=Path(sys.executable)))
    streamed = [path.relative_to(root).as_posix() for path in scan.stream(files)]
    assert len(streamed) == len(set(streamed))
    assert set(streamed) == set(TREE) - IRRELEVANT - {"pyproject.toml", ".gitignore"}
    direct = [name for name in streamed if "nemo_platform" in TREE[name]]
    assert streamed[: len(direct)] == direct == sorted(direct)
    # relevant through what they import: known once everything has been read
    assert set(streamed[len(direct) :]) >= {"jobs/indirect.py", "rel/a.py", "tests/test_x.py"}


def test_a_file_relevant_by_itself_is_given_out_before_the_rest_is_read(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "t", {"pyproject.toml": "", "job.py": SDK, "plain.py": "x = 1\n"})
    scan = RelevanceScan(Project(root, python=Path(sys.executable)))
    stream = scan.stream([root / "job.py", root / "plain.py"])
    assert next(stream) == root / "job.py"
    assert not any(node[1].endswith("plain.py") for node in scan._deps)  # not read yet
    assert list(stream) == []


def _squares(batch: list[int]) -> list[tuple[int, int, int]]:
    return [(item, item * item, os.getpid()) for item in batch]


def test_the_workers_answer_every_item_once() -> None:
    """Two processes: one forked worker, and this one once ``rest`` is read."""
    rest = iter(range(8, 300))
    results = list(in_workers(list(range(8)), rest, 2, _squares))
    assert sorted((item, square) for item, square, _ in results) == [(i, i * i) for i in range(300)]
    pids = {pid for _, _, pid in results}
    assert os.getpid() in pids
    assert len(pids) == 2


def test_batches_shrink_to_one_file_as_the_work_runs_out() -> None:
    assert batch_size(1000, 2) == MAX_BATCH
    assert batch_size(12, 2) == 3
    assert batch_size(3, 2) == batch_size(1, 2) == 1


def test_the_pool_and_one_process_give_the_same_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Remote findings included (routed into files that are not analysed), with the files
    relevant through their imports found last; 40 more files make the batches vary."""
    files = dict(TREE)
    r = random.Random(5)
    for index in range(40):
        helper = r.choice(["submit_to", "make_runner"])
        value = r.choice(["{'fn': lambda x: x}", "42", "'qa/x'"])
        files[f"more/m{index:02}.py"] = (
            f"from app.helpers import {helper}\n\n{helper}({value})\n"
            if index % 3
            else SDK + f"client = NeMoPlatform(workspace='qa')\nX = {value}\n"
        )
    root = write_tree(tmp_path / "t", files)
    for fmt in ("json", "concise"):
        argv = ("check", "--no-cache", "--output-format", fmt, str(root))
        unfiltered = cli(capsys, *argv, "--jobs", "1", prefilter=False)  # in the files' order
        one = cli(capsys, *argv, "--jobs", "1", prefilter=True)
        pool = cli(capsys, *argv, "--jobs", "2", prefilter=True)
        assert pool == one == unfiltered
        if fmt == "json":
            assert json.loads(pool[1])["files_checked"] == len(files) - 2


def test_the_first_file_is_analysed_before_the_workers_are_forked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the first analysis builds (the project's index of which files may reach a module,
    the engine's lazily loaded parts) is inherited by the forked workers instead of being built
    again in each: the main process analyses one file, then starts the pool."""
    from evalsubmit.cli import check_analysis, workers

    root = write_tree(
        tmp_path / "t", {"pyproject.toml": "", **{f"j{i:02}.py": SDK for i in range(12)}}
    )
    events: list[tuple[str, object]] = []
    analyse_one = check_analysis._analyse_one
    start_pool = workers.in_workers

    def here(path: Path, *args: object, **kwargs: object) -> object:
        events.append(("main", path.name))  # a forked worker's calls land in its own copy
        return analyse_one(path, *args, **kwargs)  # type: ignore[arg-type]

    def pool(first: list[object], *args: object) -> object:
        events.append(("pool", len(first)))
        return start_pool(first, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(check_analysis, "_analyse_one", here)
    monkeypatch.setattr(workers, "in_workers", pool)
    code, out = cli(capsys, "check", "--no-cache", "--jobs", "2", str(root), prefilter=True)
    # then, the scan over, the main process takes its share of what waits
    assert events[:2] == [("main", "j00.py"), ("pool", check_analysis.PARALLEL_THRESHOLD - 1)]
    assert {kind for kind, _ in events[2:]} <= {"main"}
    monkeypatch.undo()
    assert (code, out) == cli(
        capsys, "check", "--no-cache", "--jobs", "1", str(root), prefilter=True
    )
