"""Template lines a person can read: wrapped at 120 characters where whitespace renders the
same, and the lines still longer never more, nor longer, than today.

Terms:

* long line — a template line over `WRAP` characters. The templates are wrapped between an
  HTML tag's attributes, inside trimmed translations and between block-level tags; a line
  whose inline text cannot break without changing the page's bytes (the words and links of
  one paragraph, a table cell's run of elements) stays long.
* ratchet — `MOST_LONG` and `LONGEST` are today's figures: a change may lower them (then
  lower the numbers here), never raise them. Wrap a new long line at a block boundary, or
  name a long tag's value first (`{% url ... as link %}`, `{% translate ... as words %}`).
* wrapped folders — `WRAPPED` holds the folders with no long line at all: an inline run
  breaks where the page already has whitespace (a space becomes a line break and indent),
  inside a tag (between its attributes, or `<span\n  class="...">`), or its words are named
  first; the tests read such pages as parsed HTML (tests/html.py), not byte for byte.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRAP = 120
MOST_LONG = 151
LONGEST = 540
WRAPPED = ("templates/games/",)


def template_lines() -> list[tuple[str, int, str]]:
    lines = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        relative = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            lines.append((relative, number, line))
    return lines


def test_long_template_lines_do_not_grow_in_number():
    long = [(path, number) for path, number, line in template_lines() if len(line) > WRAP]
    assert len(long) <= MOST_LONG, (
        f"{len(long)} template lines over {WRAP} characters (at most {MOST_LONG}); "
        f"the newest: {long[-5:]}"
    )


def test_no_template_line_is_longer_than_the_longest_today():
    longest = max(template_lines(), key=lambda item: len(item[2]))
    assert len(longest[2]) <= LONGEST, f"{longest[0]}:{longest[1]} is {len(longest[2])} long"


def test_the_wrapped_folders_have_no_long_line():
    long = [
        f"{path}:{number} ({len(line)})"
        for path, number, line in template_lines()
        if path.startswith(WRAPPED) and len(line) > WRAP
    ]
    assert not long, f"lines over {WRAP} characters in {WRAPPED}: {long}"
