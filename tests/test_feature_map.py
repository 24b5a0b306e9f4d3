"""The feature map names every module a reader looks for, and no module grows past a screenful
of screenfuls.

Terms:

* feature map — the table "Where each feature lives" in `docs/design/where-things-are.md`:
  one row per feature, naming where its models, writes (services), reads (selectors),
  pages (views, forms, templates), API and tests live.
* entry module — a Python module under an app's `services/`, `views/` or `api/` folder
  (`games/services/results.py`, `tournaments/api/players.py`): the places a reader opens
  first when looking for a feature. Each must be named in the map by its path from the
  repository's root, and every path the map names must exist, so the map cannot go stale in
  either direction.
* product module — a Python module of an app or the engine, migrations aside. None is longer
  than `LONGEST` lines, except the engine's two tables of rules (`EXEMPT`), which read best
  whole.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs/design/where-things-are.md"
APPS = ("config", "games", "tournaments", "scoring", "circuits")
ENTRY_FOLDERS = ("services", "views", "api")
LONGEST = 600
EXEMPT = {"scoring/game.py", "scoring/standings.py"}

# A repository path of a Python module or package folder, in backticks or plain text.
PATH = re.compile(r"(?<![\w/.-])((?:" + "|".join(APPS) + r")/[\w/]+(?:\.py|/))")


def _modules(predicate) -> list[str]:
    found = []
    for app in APPS:
        folder = ROOT / app
        if not folder.is_dir():
            continue
        for path in folder.rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or path.name == "__init__.py":
                continue
            if predicate(relative):
                found.append(relative)
    return sorted(found)


def _is_entry(relative: str) -> bool:
    parts = relative.split("/")
    return any(part in ENTRY_FOLDERS for part in parts[1:-1])


def named_in_map() -> set[str]:
    return set(PATH.findall(MAP.read_text(encoding="utf-8")))


@pytest.mark.parametrize("module", _modules(_is_entry))
def test_every_entry_module_is_in_the_feature_map(module):
    assert module in named_in_map(), (
        f"{module} is not named in docs/design/where-things-are.md: add it to its feature's row"
    )


def test_every_path_the_map_names_exists():
    missing = sorted(path for path in named_in_map() if not (ROOT / path).exists())
    assert not missing, f"the feature map names paths that do not exist: {missing}"


def test_the_map_has_a_row_per_feature():
    rows = [
        line
        for line in MAP.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith("| feature") and "---" not in line
    ]
    assert len(rows) >= 12, "the feature map lost its rows"


def test_no_product_module_is_longer_than_the_bound():
    long = {}
    for module in _modules(lambda relative: relative not in EXEMPT):
        lines = (ROOT / module).read_text(encoding="utf-8").count("\n")
        if lines > LONGEST:
            long[module] = lines
    assert not long, f"modules over {LONGEST} lines (split them on their seams): {long}"
