"""Template lines a person can read: no template line over 120 characters, except the
named lines that cannot break, each with its reason.

Terms:

* long line — a template line over `WRAP` characters. The templates are wrapped between an
  HTML tag's attributes (or inside a tag, `<span\\n  class="...">`), inside trimmed
  translations and between block-level tags, with a long tag's value named first
  (`{% url ... as link %}`, `{% translate ... as words %}`, `{% with %}`); whitespace is
  added only beside whitespace already there or where a browser drops it (at a block's
  edges), so the page shows the same. The tests read such pages as parsed HTML
  (tests/html.py), not byte for byte.
* still long — `STILL_LONG`: the lines that cannot break without changing the page, each
  with the reason. djLint's own line rule (`.djlint_rules.yaml`, run by `make lint`) skips
  their files through pyproject.toml's `per-file-ignores`; this test is the exact one.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRAP = 120
# Long lines that cannot break: (template, the line's start) -> why.
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


def test_no_template_line_is_longer_than_the_bound():
    long = [
        f"{path}:{number} ({len(line)})"
        for path, number, line in template_lines()
        if len(line) > WRAP
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


def test_djlint_skips_only_the_files_of_the_lines_let_stay_long():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["djlint"]
    skipped = {path for path, rules in config["per-file-ignores"].items() if "L120" in rules}
    assert skipped == {kept.removeprefix("templates/") for kept, _ in STILL_LONG}
