"""Template lines a person can read: wrapped at 120 characters where whitespace renders the
same, none longer outside templates/games/, and the lines still longer never more, nor
longer, than today.

Terms:

* long line — a template line over `WRAP` characters. The templates are wrapped between an
  HTML tag's attributes, inside trimmed translations and between block-level tags, with a
  long tag's value named first (`{% url ... as link %}`, `{% translate ... as words %}`);
  whitespace is added only beside whitespace already there or where a browser drops it (at
  a block's edges), so the page shows the same. The tests read such pages as parsed HTML
  (tests/html.py), not byte for byte.
* wrapped folder — every template folder but templates/games/: no long line there, except
  the lines of `STILL_LONG`, each with the reason it cannot break.
* ratchet — `MOST_LONG` and `LONGEST` are today's figures for the whole tree: a change may
  lower them (then lower the numbers here), never raise them. Wrap a new long line at a
  block boundary, or name a long tag's value first.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRAP = 120
MOST_LONG = 230
LONGEST = 520
NOT_WRAPPED_YET = "templates/games/"
# Long lines of the wrapped folders: (template, the line's start) -> why it cannot break.
STILL_LONG = {
    (
        "templates/tournaments/rules_panel.html",
        "{% for metric in preview.ranking %}",
    ): "the tags that open a ranking item: a break between them would print whitespace "
    "between two items, where only the list separator stands (a translation, which need not "
    "end with a space), and a Django tag cannot span lines",
}


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


def test_no_long_line_outside_the_folders_not_wrapped_yet():
    long = [
        f"{path}:{number} ({len(line)})"
        for path, number, line in template_lines()
        if len(line) > WRAP
        and not path.startswith(NOT_WRAPPED_YET)
        and not any(path == kept and line.strip().startswith(start) for kept, start in STILL_LONG)
    ]
    assert not long, f"lines over {WRAP} characters: {long}"


def test_every_line_let_stay_long_is_still_there_and_long():
    lines = template_lines()
    for kept, start in STILL_LONG:
        assert any(
            path == kept and line.strip().startswith(start) and len(line) > WRAP
            for path, _, line in lines
        ), f"{kept}: no long line starts with {start!r}: take it off STILL_LONG"
