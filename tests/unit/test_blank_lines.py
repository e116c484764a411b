"""Blank lines that are not code (``source/blank_lines.py``): a chunk is known by its code,
so these decide when an Enter or a Backspace may keep a statement's tree and results. A blank
line a string holds is code (the string's value changes with it); Python's tokenizer skips
every other one."""

from __future__ import annotations

import ast

import pytest

from evalsubmit.analysis.source.blank_lines import code_of, in_string, same_code

HELD = {
    "docstring": 'def f():\n    """One.\n\n    Two."""\n    return 1\n',
    "assigned": 'PROMPT = """a\n\nb"""\n',
    "decorator": '@register("""a\n\nb""")\ndef f():\n    pass\n',
    "default": 'def f(x="""a\n\nb"""):\n    pass\n',
    "f-string": 'def f(n):\n    return f"""{n}\n\n{n}"""\n',
    "bytes": "DATA = b'''a\n\nb'''\n",
    "in a call": 'run(\n    prompt="""a\n\nb""",\n)\n',
    "a lambda's": 'pick = lambda: """a\n\nb"""\n',
}


@pytest.mark.parametrize("name", list(HELD))
def test_a_blank_line_a_string_holds_is_code(name: str) -> None:
    text = HELD[name]
    tree = ast.parse(text).body
    blank = text.split("\n").index("") + 1
    assert in_string(tree, blank)
    assert code_of(text, tree, 1) == text
    removed = text.replace("\n\n", "\n", 1)
    assert same_code(text, tree, 1, removed) is None  # Backspace inside the string
    added = text.replace("\n\n", "\n\n\n", 1)
    assert same_code(text, tree, 1, added) is None  # Enter inside it
    assert same_code(removed, ast.parse(removed).body, 1, text) is None


def test_other_blank_lines_are_not_code() -> None:
    text = (
        '@register(\'x\')\n\ndef f():\n    """Doc."""\n\n    x = 1\n    \n\n'
        "    return '''a\n\nb'''\n\n\n"
    )
    tree = ast.parse(text).body
    assert code_of(text, tree, 1) == (
        "@register('x')\ndef f():\n    \"\"\"Doc.\"\"\"\n    x = 1\n    return '''a\n\nb'''\n"
    )
    entered = text.replace("    x = 1\n", "    x = 1\n        \n")
    places = same_code(text, tree, 1, entered)
    assert places is not None
    old, new = text.split("\n"), entered.split("\n")
    for index, place in enumerate(places):
        assert place < 0 or old[index] == new[place]
    assert code_of(entered, ast.parse(entered).body, 1) == code_of(text, tree, 1)


def test_a_backslash_keeps_every_blank_line() -> None:
    text = "x = 1 + \\\n    2\n\ny = 3\n"
    tree = ast.parse(text).body
    assert code_of(text, tree, 1) == text
    assert same_code(text, tree, 1, text.replace("\n\n", "\n")) is None


def test_lines_are_counted_from_the_chunks_first_line() -> None:
    """A chunk further down: its statements' line numbers are the module's."""
    text = 'PROMPT = """a\n\nb"""\n\n'
    tree = ast.parse("\n" * 40 + text).body
    assert code_of(text, tree, 41) == 'PROMPT = """a\n\nb"""\n'
    assert same_code(text, tree, 41, text + "\n") is not None
    assert same_code(text, tree, 41, text.replace("\n\n", "\n", 1)) is None
