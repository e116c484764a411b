"""An invalid configuration file's error is shown once, and again only once the file was valid
in between. Analyses run in a pool: one that read the file before it broke may hand its result
to the event loop after one that read it broken, and must not make the error news again."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from evalsubmit.lsp.project_config import ProjectConfigs
from evalsubmit.lsp.settings import Settings

VALID = '[tool.evalsubmit]\nselect = ["ES102"]\n'
INVALID = '[tool.evalsubmit]\nselect = "ES102"\n'


class Window:
    """Stands in for the language server: notes each message shown."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    def window_show_message(self, params: Any) -> None:
        self.shown.append(params.message)


def test_a_stale_read_does_not_show_the_error_again(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    pyproject = tmp_path / "pyproject.toml"
    job = tmp_path / "job.py"
    window = Window()
    configs = ProjectConfigs(cast(Any, window))
    settings = Settings()
    pyproject.write_text(VALID, encoding="utf-8")
    before = configs.effective(job, settings)  # an analysis under way when the file broke
    pyproject.write_text(INVALID + "\n", encoding="utf-8")  # another size: seen as changed
    broken = configs.effective(job, settings)
    assert broken.error is not None and before.error is None
    configs.show(broken)
    configs.show(before)  # handed on late: it read the file before it broke
    configs.show(configs.effective(job, settings))
    assert len(window.shown) == 1
    # valid again, then broken again: news
    pyproject.write_text(VALID + "\n\n", encoding="utf-8")
    configs.show(configs.effective(job, settings))
    pyproject.write_text(INVALID, encoding="utf-8")
    configs.show(configs.effective(job, settings))
    assert len(window.shown) == 2
    assert "select: expected a list of strings" in window.shown[1]
