"""The CLI's relevance scan and the analysis's index of which files may reach a module read and
import-scan each project file once between them, and the analysis reads the same texts
(:mod:`evalsubmit.workspace.disk_texts` kept for one run); a file is seen again when its stat
changed."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import pytest
from test_module_set_elsewhere import MAIN, ZERO, _es109, _project

from evalsubmit.analysis import Project, analyze_source
from evalsubmit.workspace import disk_texts
from evalsubmit.workspace.disk_texts import DiskTexts
from evalsubmit.workspace.relevance import RelevanceScan


def _counting(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], Counter[str]]:
    """Reads of files on disk and import scans through the texts kept for the run, by file
    name."""
    reads: Counter[str] = Counter()
    scans: Counter[str] = Counter()
    read_source, statements_in = disk_texts.read_source, disk_texts.statements_in

    def counted_read(path: Path, **options: int) -> object:
        if path.is_file():  # not the configuration files looked for and missing
            reads[path.name] += 1
        return read_source(path, **options)

    def counted_scan(text: str, *args: object) -> object:
        scans[text] += 1
        return statements_in(text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(disk_texts, "read_source", counted_read)
    monkeypatch.setattr(disk_texts, "statements_in", counted_scan)
    return reads, scans


@pytest.mark.parametrize("scan_first", [True, False])
def test_the_scan_and_the_index_read_each_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scan_first: bool
) -> None:
    runners = _project(tmp_path, "settings.CONCURRENCY = 8")
    reads, scans = _counting(monkeypatch)
    project = Project(tmp_path)
    project.keep_texts_for_one_run()
    files = project.python_files()
    if scan_first:
        assert RelevanceScan(project).relevant(files) == {runners, tmp_path / "main.py"}
    # the store in main.py, read through the shared texts and statements, is seen (the
    # analysis's own reads of settings.py and main.py take the same texts)
    assert _es109(runners, project) == []
    if not scan_first:
        assert RelevanceScan(project).relevant(files) == {runners, tmp_path / "main.py"}
    assert set(reads) == {"__init__.py", "settings.py", "runners.py", "main.py"}
    assert set(reads.values()) == {1}
    assert max(scans.values()) == 1


def test_a_file_changed_on_disk_is_read_again(tmp_path: Path) -> None:
    runners = _project(tmp_path, "")
    project = Project(tmp_path)
    project.keep_texts_for_one_run()
    RelevanceScan(project).relevant(project.python_files())
    assert _es109(runners, project) == [ZERO]
    main = tmp_path / "main.py"
    main.write_text(MAIN.format(store="settings.CONCURRENCY = 8"))
    os.utime(main, ns=(1, 1))  # another stat than the first text's, whatever the clock
    project.files_changed()
    assert _es109(runners, project) == []
    assert project.shared_reads is not None
    read = project.shared_reads.read_shared(main)
    assert read is not None and "CONCURRENCY = 8" in read.text


def test_the_same_stat_gives_the_text_kept_and_a_notebook_is_not_shared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = DiskTexts(2_000_000, one_run=True)
    module = tmp_path / "m.py"
    module.write_text("import os\n")
    first = shared.read_shared(module)
    # kept at once, just written or not: the run sees the files as they were
    monkeypatch.setattr(disk_texts, "read_source", lambda *a, **k: pytest.fail("read again"))
    assert first is not None and shared.read_shared(module) is first
    assert shared.read(module) is first.text
    assert first.import_statements() == (((("", "os", None, "head"),)),)
    monkeypatch.undo()
    notebook = tmp_path / "n.ipynb"
    notebook.write_text('{"cells": []}')
    assert shared.read_shared(notebook) is None
    assert shared.read_shared(tmp_path / "missing.py") is None


def test_without_sharing_the_index_reads_the_files_itself(tmp_path: Path) -> None:
    runners = _project(tmp_path, "settings.CONCURRENCY = 8")
    project = Project(tmp_path)
    assert project.shared_reads is None
    report = analyze_source(runners.read_text(), path=runners, project=project)
    assert report.skipped is None, report.skipped
    assert not [f for f in report.findings if f.code == "ES109"]


def test_a_write_keeping_size_and_mtime_is_seen(tmp_path: Path) -> None:
    """The change time moves with every write, whatever the modification time and size say."""
    shared = DiskTexts(2_000_000, one_run=True)
    module = tmp_path / "m.py"
    module.write_text("x = 1\n")
    os.utime(module, ns=(1, 1))
    first = shared.read_shared(module)
    assert first is not None and first.text == "x = 1\n"
    time.sleep(0.05)  # past the clock's tick
    module.write_text("x = 2\n")
    os.utime(module, ns=(1, 1))
    second = shared.read_shared(module)
    assert second is not None and second.text == "x = 2\n"
