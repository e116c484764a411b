"""Reading .ipynb files into cells and writing cell sources back byte for byte elsewhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalsubmit.core.sourcefile import UnreadableSource
from evalsubmit.workspace.notebook import InvalidNotebook, read_notebook
from notebook_files import TUTORIAL_CELLS, code, markdown, notebook, write


def _tutorial(tmp_path: Path) -> Path:
    return write(tmp_path / "evaluate.ipynb", notebook(*TUTORIAL_CELLS))


def test_cells_in_document_order_with_their_kinds_and_text(tmp_path: Path) -> None:
    nb = read_notebook(_tutorial(tmp_path))
    assert [cell.kind for cell in nb.cells] == [
        "code", "markdown", "code", "code", "markdown", "code", "code",
    ]  # fmt: skip
    assert nb.cells[0].text == "%pip install -q nemo-evaluator-sdk\n"
    assert nb.cells[4].text == "## Submit — résumé of the run\n"
    assert nb.cells[6].text == 'job = runner.submit(target="agent")\nprint(job)\n'
    assert nb.is_python


def test_unchanged_sources_give_the_file_back_as_it_was(tmp_path: Path) -> None:
    path = _tutorial(tmp_path)
    nb = read_notebook(path)
    assert nb.with_sources({}).encode() == path.read_bytes()
    same = {index: cell.text for index, cell in enumerate(nb.cells)}
    assert nb.with_sources(same).encode() == path.read_bytes()


def test_an_edited_cell_changes_only_its_source_value(tmp_path: Path) -> None:
    path = _tutorial(tmp_path)
    before = path.read_text(encoding="utf-8")
    nb = read_notebook(path)
    after = nb.with_sources({2: nb.cells[2].text.replace('"default"', '"prod"') + "x = 1"})
    document = json.loads(after)
    assert document["cells"][2]["source"] == [
        "from nemo_evaluator_sdk import EvaluationRunner\n",
        "\n",
        'runner = EvaluationRunner(workspace="prod")\n',
        "x = 1",
    ]
    # outside the edited value, every byte is as it was (outputs, counts, metadata, newline)
    old_value = json.dumps(document["cells"][2]["source"])  # only used for its length below
    assert old_value
    head = before[: before.index('"from nemo_evaluator_sdk')]
    tail = before[before.index('"runner = EvaluationRunner') :]
    tail = tail[tail.index("]") :]
    assert after.startswith(head)
    assert after.endswith(tail)
    assert after.endswith("\n}\n")
    assert document["cells"][0]["outputs"][0]["text"] == ["Successfully installed\n"]
    expected = json.loads(before)
    expected["cells"][2]["source"] = document["cells"][2]["source"]
    assert json.dumps(expected, indent=1, ensure_ascii=False) + "\n" == after


def test_a_string_source_and_an_empty_list_keep_their_shape(tmp_path: Path) -> None:
    cells = [code("a = 1\n"), markdown("text\n")]
    cells[0]["source"] = "a = 1\nb = 2"
    cells[1]["source"] = []
    path = write(tmp_path / "shapes.ipynb", notebook(*cells, code("")))
    nb = read_notebook(path)
    after = json.loads(nb.with_sources({0: "a = 3", 2: "c = 1\nd = 2\n"}))
    assert after["cells"][0]["source"] == "a = 3"
    assert after["cells"][2]["source"] == ["c = 1\n", "d = 2\n"]
    text = nb.with_sources({2: "c = 1\nd = 2\n"})
    assert '"source": [\n    "c = 1\\n",\n    "d = 2\\n"\n   ]' in text


def test_a_compact_notebook_and_a_bom_are_kept(tmp_path: Path) -> None:
    document = notebook(code("x = 1\n"), code("y = 2\n"))
    path = tmp_path / "compact.ipynb"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(document, separators=(",", ":")).encode())
    nb = read_notebook(path)
    after = nb.with_sources({1: "y = 3\n"})
    assert after.encode() == path.read_bytes().replace(b'["y = 2\\n"]', b'["y = 3\\n"]')


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "invalid JSON: Expecting property name enclosed in double quotes (line 1"),
        ('{"nbformat": 3, "worksheets": []}', "not an nbformat 4 notebook (nbformat 3)"),
        ('{"cells": []}', "not an nbformat 4 notebook (no nbformat field)"),
        ("[1, 2]", "not a notebook: the JSON is not an object"),
        ('{"nbformat": 4, "cells": {}}', "not a notebook: 'cells' is not a list"),
        ('{"nbformat": 4, "cells": [{"cell_type": "code"}]}', "cell 1's source is not text"),
        ('{"nbformat": 4, "cells": [{"source": "x"}]}', "cell 1 has no cell_type"),
    ],
)
def test_what_is_not_a_notebook_says_why(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidNotebook) as caught:
        read_notebook(path)
    assert reason in caught.value.reason
    assert isinstance(caught.value, UnreadableSource)  # the walk skips it with a warning


def test_a_non_python_kernel_is_said(tmp_path: Path) -> None:
    document = notebook(code("x <- 1\n"))
    document["metadata"]["language_info"] = {"name": "R"}
    nb = read_notebook(write(tmp_path / "r.ipynb", document))
    assert nb.language == "R"
    assert not nb.is_python
