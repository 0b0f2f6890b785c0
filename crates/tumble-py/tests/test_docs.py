"""Every ```python block of the README and of the pages under docs/ runs.

Each block is a program of its own: it runs in a fresh namespace, from the
repository's root, with pygame headless (the test command sets
SDL_VIDEODRIVER=dummy), and its asserts are the page's claims. A block
that must not run is written as ```text, with the reason beside it.
"""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            name = f"{page.relative_to(ROOT)}:{line}"
            yield pytest.param(page, line, match.group(1), id=name)


def test_the_pages_have_python_examples():
    assert len(list(blocks())) >= 10


@pytest.mark.parametrize("page, line, code", list(blocks()))
def test_example_runs(page, line, code, monkeypatch):
    monkeypatch.chdir(ROOT)
    # Line numbers in a traceback are the page's own.
    program = compile("\n" * line + code, str(page), "exec")
    exec(program, {"__name__": "__main__"})
