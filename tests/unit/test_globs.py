"""Globs from configuration and ``.gitignore`` files: matched in linear time (a pattern built to
make a backtracking regex go exponential answers at once, through every path that matches
them), and meaning what pathspec's ``GitIgnoreSpec`` (used before) meant."""

from __future__ import annotations

import subprocess
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from evalsubmit.analysis import config_resolver
from evalsubmit.workspace.globs import DIR_MATCH, FILE_MATCH, GlobError, GlobSet, compile_glob
from evalsubmit.workspace.walk import python_files

PATHOLOGICAL = "*a*a*a*a*a*a*a*a*b"  # 8 stars: minutes for a backtracking regex
LONG_NAME = "a" * 57 + ".py"  # 60 characters, no "b": every split is tried before failing
BOUND = 1.0  # seconds: a guard against exponential time, not a benchmark


def _timed(action: object) -> float:
    start = time.perf_counter()
    assert callable(action)
    action()
    return time.perf_counter() - start


# -- linear time, through each use -----------------------------------------------------------


def test_the_pathological_pattern_alone_answers_at_once() -> None:
    glob = compile_glob(PATHOLOGICAL)
    assert glob is not None
    assert _timed(lambda: glob.match(LONG_NAME)) < BOUND
    assert glob.match(LONG_NAME) == 0 and glob.match("x" + "a" * 8 + "b") == FILE_MATCH
    assert _timed(lambda: glob.match("a" * 5000)) < BOUND


@pytest.mark.timeout(20)
@pytest.mark.parametrize("key", ["extend-exclude", "exclude"])
def test_a_pathological_exclude_does_not_stall_the_walk(tmp_path: Path, key: str) -> None:
    (tmp_path / "evalsubmit.toml").write_text(f'{key} = ["{PATHOLOGICAL}"]\n')
    (tmp_path / LONG_NAME).write_text("")
    resolver = config_resolver()
    config = resolver.for_path(tmp_path / LONG_NAME)
    assert _timed(lambda: config.excludes(tmp_path / LONG_NAME)) < BOUND
    assert not config.excludes(tmp_path / LONG_NAME)


@pytest.mark.timeout(20)
def test_a_pathological_per_file_ignores_key_does_not_stall(tmp_path: Path) -> None:
    (tmp_path / "evalsubmit.toml").write_text(
        f'[per-file-ignores]\n"{PATHOLOGICAL}" = ["ES101"]\n"!{PATHOLOGICAL}" = ["ES102"]\n'
    )
    config = config_resolver().for_path(tmp_path / LONG_NAME)
    assert _timed(lambda: config.ignored_for(tmp_path / LONG_NAME)) < BOUND
    assert config.ignored_for(tmp_path / LONG_NAME) == {"ES102"}


@pytest.mark.timeout(20)
def test_a_pathological_gitignore_line_does_not_stall_the_walk(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text(f"{PATHOLOGICAL}\n")
    (tmp_path / LONG_NAME).write_text("")
    found: list[Path] = []
    assert _timed(lambda: found.extend(python_files([tmp_path]))) < BOUND
    assert found == [tmp_path / LONG_NAME]


@pytest.mark.skipif(subprocess.run(["git", "--version"]).returncode != 0, reason="no git")
def test_git_agrees_on_the_pathological_pattern(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text(f"{PATHOLOGICAL}\n")
    # not LONG_NAME: git's own wildmatch backtracks on it (34 s)
    for name in ("xab.py", "a" * 30 + "b", "sub/" + "a" * 8 + "b", "a" * 8 + "b/c"):
        ignored = subprocess.run(["git", "-C", str(tmp_path), "check-ignore", "-q", name])
        glob = compile_glob(PATHOLOGICAL)
        assert glob is not None and (glob.match(name) != 0) == (ignored.returncode == 0)


# -- the same meaning as pathspec's GitIgnoreSpec -------------------------------------------------


def _pathspec(lines: list[str]) -> object:
    from pathspec import GitIgnoreSpec

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # re's "possible nested set"
        return GitIgnoreSpec.from_lines(lines)


def _pathspec_valid(line: str) -> bool:
    try:
        _pathspec([line])
    except Exception:
        return False
    return True


def _ours_valid(line: str) -> bool:
    try:
        compile_glob(line)
    except GlobError:
        return False
    return True


def _pathspec_priority(line: str, path: str) -> int:
    """pathspec's verdict for one pattern: 0, 1 (matched through a folder) or 2."""
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    pattern = GitIgnoreSpecPattern(line)
    if pattern.include is None:
        return 0
    found = pattern.match_file(path)
    if found is None:
        return 0
    return DIR_MATCH if found.match.groupdict().get("ps_d") else FILE_MATCH


TRICKY_PATTERNS = [
    "foo", "/foo", "foo/", "/foo/", "foo/bar", "foo/bar/", "**", "**/", "*", "*/", "**/*",
    "**/*/**", "a/**", "a/**/b", "**/a", "**/a/**", "a/**/**/b", "a//b", "!a", "!/", "*.py",
    "f?o", "f*o", "f**o", "[abc]x", "[!abc]x", "[^abc]x", "[a-c]x", "[]]x", "[!]]x", "[]-]x",
    "[a-]x", "[-a]x", "x[", "x[abc", "[!]", "[]", "\\*x", "\\[a]", "a\\ ", "a  ", " a",
    "\\#a", "#a", "\\!a", "a[\\]b", "[[:alpha:]]", "a/*", "a/*/b", "*/b", "?", "/*", "/**",
    "/*/", "a/b/c/**/d/", "**/a/*", "*a*a*a*b", "[a-c-e]", "[--a]", "[*]", "[?]", "a/?/b",
]  # fmt: skip
TRICKY_PATHS = [
    "foo", "foo/", "foo/bar", "foo/bar/", "x/foo", "x/foo/", "x/foo/y", "a", "a/", "a/b",
    "a/b/", "a/x/b", "a/x/y/b", "a/b/b", "b/a/b", "ab/c", "x.py", "d/x.py", "fao", "f/o",
    "fooo", "ax", "dx", "]x", "-x", "[x", "*x", "[a]", "a ", " a", "#a", "!a", "a\\b", "a:b",
    "a//b", "e", "-", "*", "?", "a/c/b", "a/b/c/x/d/", "a/b/c/d/q", "xaxaxab", "a/ab/b/",
    "a/b/a/b", "/foo", "./foo", "x/",
]  # fmt: skip


@pytest.mark.parametrize("line", TRICKY_PATTERNS)
def test_tricky_patterns_mean_what_pathspec_meant(line: str) -> None:
    assert _ours_valid(line) == _pathspec_valid(line), line
    if not _ours_valid(line):
        return
    glob = compile_glob(line)
    for path in TRICKY_PATHS:
        ours = glob.match(path) if glob is not None else 0
        assert ours == _pathspec_priority(line, path.lstrip("/").removeprefix("./")), path


def test_invalid_patterns_are_refused_with_the_reason() -> None:
    for line, why in [("[z-a]", "bad character range z-a"), ("foo\\", "escapes nothing")]:
        with pytest.raises(GlobError, match=why):
            compile_glob(line)
    with pytest.raises(GlobError):
        compile_glob("!")


_ALPHABET = st.sampled_from(list("ab/*?[]!^-\\ .#"))
_PATH_ALPHABET = st.sampled_from(list("ab/.-]!^\\ #"))
_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


@_SETTINGS
@given(st.text(_ALPHABET, max_size=10), st.lists(st.text(_PATH_ALPHABET, max_size=10), max_size=6))
@example("**/a", ["a/a", "a/a/"])
@example("a/**/b", ["a/b/b", "a/b/b/"])
def test_one_pattern_agrees_with_pathspec(line: str, paths: list[str]) -> None:
    assert _ours_valid(line) == _pathspec_valid(line)
    if not _ours_valid(line):
        return
    glob = compile_glob(line)
    for path in paths:
        normal = path[1:] if path.startswith("/") else path.removeprefix("./")
        assert (glob.match(path) if glob is not None else 0) == _pathspec_priority(line, normal)


@_SETTINGS
@given(
    st.lists(st.text(_ALPHABET, min_size=1, max_size=6), min_size=1, max_size=5),
    st.lists(st.text(_PATH_ALPHABET, max_size=8), max_size=6),
)
@example(["a/", "!a/b"], ["a/b", "a/c"])
@example(["!a/b", "a/"], ["a/b"])
def test_a_gitignore_file_agrees_with_pathspec(lines: list[str], paths: list[str]) -> None:
    lines = [line for line in lines if _pathspec_valid(line)]
    ours, theirs = GlobSet.from_lines(lines), _pathspec(lines)
    for path in paths:
        assert ours.check(path) == theirs.check_file(path).include, path  # type: ignore[attr-defined]
