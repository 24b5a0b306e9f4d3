"""Every message the circuits give a person passes through translation — the same check
as the other apps' (`tests.games.test_messages_marked`), and the labels, help texts and
choices of their models and forms are marked too (`unmarked_labels`, the tournaments')."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_messages_marked import ROOT, unmarked
from tests.tournaments.test_messages_marked import unmarked_labels

SOURCES = sorted(
    [
        *(p for p in ROOT.glob("circuits/**/*.py") if "migrations" not in p.parts),
        ROOT / "scoring" / "circuits.py",
        ROOT / "tournaments" / "services" / "people.py",
        ROOT / "tournaments" / "models" / "people.py",
    ]
)


def test_the_sources_are_found() -> None:
    names = {str(path.relative_to(ROOT)) for path in SOURCES}
    assert {"circuits/services/ranking.py", "circuits/views/people.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_messages_are_marked_for_translation(path: Path) -> None:
    assert unmarked(path) == []


# What a person reads on a page (the API's help texts are the schema's, in English).
LABELLED = ["circuits/models.py", "circuits/views/people.py", "tournaments/models/people.py"]


@pytest.mark.parametrize("name", LABELLED)
def test_labels_help_and_choices_are_marked(name: str) -> None:
    assert unmarked_labels(ROOT / name) == []
