"""Every document the repository cites is in the repository, and nothing names an issue.

Terms:

* citation — a path to a Markdown file written in a file of the repository (`*.py`,
  `*.html`, `*.md`, `*.toml`, `*.yml`, the Makefile, `.ci/run`): `docs/rules/scoring.md`,
  `docs/rules/scoring.md#rack-value`, a relative Markdown link, or a bare file name. It
  must name a file that exists, relative to the citing file's folder, to the repository's
  root or (for mkdocs.yml's navigation) to docs/; an anchor (`#rack-value`) must be a
  heading of that file, slugged as MkDocs slugs it. A path out of the repository into the
  shared folder beside it is always wrong: a clone does not have it.
* served page — an address of the help pages the running site serves, `/docs/rules/presets/`
  in the product's Python or `{% url "docs" "rules/presets/" %}` in a template:
  `docs/rules/presets.md` must exist (or an `index.md` in a folder of that name).
* issue number — the word issue followed by a number: the tracker's numbers mean nothing
  to a reader of the product or its documentation.

The bad examples below are assembled from pieces, so that this file passes its own scan.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".venv", ".git", "build", "staticfiles", "node_modules", "htmlcov", "locale"}
SKIP_DIRS |= {".pytest_cache", ".ruff_cache", ".hypothesis", ".mypy_cache", "__pycache__"}
SUFFIXES = {".py", ".html", ".md", ".toml", ".yml", ".yaml", ".txt"}
NAMES = {"Makefile", "run"}

# A path ending in .md, with an optional anchor; not part of a URL (`://…`).
CITATION = re.compile(r"(?<![\w/.:-])((?:\.{1,2}/|[\w-]+/)*[\w.-]+\.md)(?![\w-])(#[\w-]+)?")
SHARED = re.compile(r"\.\./" + "shared" + r"\b")
SERVED = re.compile(r"""(?:(?<![\w/])/docs/|\{%\s*url\s+["']docs["']\s+["'])([\w/-]*)""")
ISSUE = re.compile(r"\bissues?\s+(?:#\s*)?\d+|\bissue\s*#\s*\d+", re.IGNORECASE)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def repository_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*"):
        if any(part in SKIP_DIRS for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and (path.suffix in SUFFIXES or path.name in NAMES):
            files.append(path)
    return sorted(files)


@cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors MkDocs gives a page's headings (code blocks are not headings)."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    slugs: set[str] = set()
    for heading in HEADING.findall(text):
        slug = slugify(re.sub(r"[`*]", "", heading), "-")
        unique, n = slug, 0
        while unique in slugs:
            n += 1
            unique = f"{slug}_{n}"
        slugs.add(unique)
    return frozenset(slugs)


def citation_problem(source: Path, target: str, anchor: str | None) -> str | None:
    """What is wrong with one citation, or None."""
    # mkdocs.yml names its pages relative to docs/.
    for base in (source.parent, ROOT, ROOT / "docs"):
        path = (base / target).resolve()
        if path.is_file() and path.is_relative_to(ROOT):
            if anchor and anchor[1:] not in anchors(path):
                return f"{target}{anchor}: no such heading in {path.relative_to(ROOT)}"
            return None
    return f"{target}: no such file in the repository"


def problems_of(path: Path, text: str | None = None) -> list[str]:
    """Every bad citation and issue number in one file (`text`: its content, if given)."""
    if text is None:
        text = path.read_text(encoding="utf-8", errors="replace")
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{path.relative_to(ROOT)}:{number}"
        if SHARED.search(line):
            found.append(f"{where}: cites the shared folder, outside the repository")
        for target, anchor in CITATION.findall(line):
            problem = citation_problem(path, target, anchor or None)
            if problem:
                found.append(f"{where}: {problem}")
        # The product's own links to its help (the tests name bad addresses on purpose).
        if path.suffix in (".py", ".html") and "tests" not in path.relative_to(ROOT).parts:
            for page in SERVED.findall(line):
                page = page.strip("/")
                candidates = [f"docs/{page}.md", f"docs/{page}/index.md"] if page else []
                if page and not any((ROOT / c).is_file() for c in candidates):
                    found.append(f"{where}: /docs/{page}/ is no page of docs/")
        if ISSUE.search(line):
            found.append(f"{where}: names an issue number: {line.strip()}")
    return found


def test_every_cited_document_is_in_the_repository_and_no_issue_is_named():
    files = repository_files()
    assert len(files) > 100  # the scan sees the code, the tests and the docs
    assert ROOT / "docs/rules/scoring.md" in files
    problems = [problem for path in files for problem in problems_of(path)]
    assert problems == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("see RULES" + ".md §3", "RULES" + ".md: no such file in the repository"),
        ("(../" + "shared/API" + ".md)", "outside the repository"),
        ("docs/rules/scoring" + ".md#no-such-heading", "no such heading"),
        ("A fix for iss" + "ue 12, point 4.", "names an issue number"),
        ("Issue " + "#7 again", "names an issue number"),
        ('help_text="see /docs/rules/' + 'nowhere/"', "is no page of docs/"),
    ],
)
def test_the_scan_sees_a_bad_citation(line, expected):
    """The check fails where it should: each kind of bad line is reported."""
    problems = problems_of(ROOT / "config" / "probe.py", line)
    assert any(expected in problem for problem in problems), problems


def test_good_citations_pass():
    text = (
        "[a](scoring" + ".md#rack-value), docs/api/index" + ".md, README" + ".md, `#4 Ada`, #12,\n"
        "https://example.org/CHANGES" + ".md, `/api/v1/docs/`, a tissue 3\n"
    )
    assert problems_of(ROOT / "docs" / "rules" / ("probe" + ".md"), text) == []
