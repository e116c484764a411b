"""``check``'s result cache flags, ``--no-cache`` and ``--cache-dir`` (ruff's names), and the
cache they choose. Building the parser loads nothing of the cache itself."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.cli.cache_folder import FOLDER_NAME

if TYPE_CHECKING:
    from evalsubmit.cli.result_cache import ResultCache

ENV_VAR = "EVALSUBMIT_CACHE_DIR"


def add_cache_options(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "-n",
        "--no-cache",
        action="store_true",
        help="neither read nor write the result cache: every file is analysed",
    )
    check.add_argument(
        "--cache-dir",
        metavar="PATH",
        type=Path,
        help=f"the result cache's folder (default: ${ENV_VAR}, else {FOLDER_NAME} at the "
        "project root)",
    )


def chosen_folder(args: argparse.Namespace) -> Path | None:
    """The cache folder the command line or the environment chose (None: at each project's
    root), with ``--no-cache`` too: the walk never enters it."""
    chosen = args.cache_dir or (Path(os.environ[ENV_VAR]) if os.environ.get(ENV_VAR) else None)
    return chosen.absolute() if chosen is not None else None


def open_cache(args: argparse.Namespace, python: Path) -> ResultCache | None:
    """The run's result cache (None: ``--no-cache``)."""
    if args.no_cache:
        return None
    from evalsubmit.cli.result_cache import ResultCache

    return ResultCache(chosen_folder(args), python)
