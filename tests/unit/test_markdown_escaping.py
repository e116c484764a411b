"""Strings that are not ours stay literal in a hover's markdown (issue 23, item 9).

The oracle is markdown-it-py, a CommonMark-conformant parser: whatever the string, the rendering
holds no link, image, autolink or HTML, and the code span or block shows exactly the string."""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt

from evalsubmit.lsp.markdown import LINE_BREAK_SHOWN, code_block, code_span

HOSTILE = [
    "qa",
    "",
    " ",
    "`",
    "``",
    "a`b",
    "a``b```c",
    "`leading",
    "trailing`",
    "``both``",
    " leading space",
    "trailing space ",
    "  both  ",
    " ` ",
    "x` ![img](https://evil.example/p.png) `y",
    "x`](https://evil.example/)[`",
    "qa` [click](https://evil.example/steal) `",
    "qa`\n\n![tracker](https://evil.example/t.gif)",
    '<img src="https://evil.example/x.png">',
    "`<img src=x onerror=alert(1)>`",
    "<script>alert(1)</script>",
    "<https://evil.example/autolink>",
    "&lt;b&gt; &amp; &#x3C;",
    "**bold** _em_ ~~s~~ # heading",
    "line one\nline two",
    "one\r\ntwo\rthree",
    "\n```\n<div>html block</div>\n```\n",
    "a\n# heading\n- item\n> quote\n<div>\n",
    "\\`escaped backtick\\`",
    "[ref]: https://evil.example/",
    "tab\there",
    "ünïcödé 🙂",
]

UNSAFE_TOKENS = {"link_open", "image", "html_inline", "html_block", "heading_open"}


def _tokens(markdown: str) -> list[Any]:
    found: list[Any] = []
    for token in MarkdownIt("commonmark").parse(markdown):
        found.append(token)
        found += token.children or []
    return found


def _flat(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", f" {LINE_BREAK_SHOWN} ")


@pytest.mark.parametrize("text", HOSTILE)
def test_a_code_span_shows_the_string_and_nothing_else(text: str) -> None:
    markdown = f"Workspace: {code_span(text)} (from the code)"
    tokens = _tokens(markdown)
    assert not [t.type for t in tokens if t.type in UNSAFE_TOKENS], markdown
    spans = [t for t in tokens if t.type == "code_inline"]
    assert len(spans) == 1, markdown
    expected = _flat(text)
    # CommonMark keeps an all-space span as it is; any other text shows exactly
    assert spans[0].content == (f" {expected} " if not expected.strip(" ") else expected)
    assert "\n" not in markdown and "\r" not in markdown


@pytest.mark.parametrize("text", HOSTILE)
def test_a_code_block_shows_the_string_and_nothing_else(text: str) -> None:
    markdown = f"**Cannot be submitted:**\n\n{code_block(text, 'json')}\n\nafter"
    tokens = _tokens(markdown)
    assert not [t.type for t in tokens if t.type in UNSAFE_TOKENS], markdown
    blocks = [t for t in tokens if t.type == "fence"]
    assert len(blocks) == 1, markdown
    assert blocks[0].info == "json"
    assert blocks[0].content == text.replace("\r\n", "\n").replace("\r", "\n") + "\n"
    assert tokens[-2].content == "after"  # the text after the block is outside it


def test_several_spans_on_one_line_stay_apart() -> None:
    markdown = " and ".join(code_span(t) for t in ("a`", "`b", "c``` ![x](y)"))
    spans = [t.content for t in _tokens(markdown) if t.type == "code_inline"]
    assert spans == ["a`", "`b", "c``` ![x](y)"]
