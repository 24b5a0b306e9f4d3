"""Every message the tournaments app and the seating engine give a person passes through
translation — the same check as the games app's (`tests.games.test_messages_marked`: a
domain error, `ValidationError`, `Http404`, `PermissionDenied`, a form's `add_error` or
the messages framework given a bare string or an f-string is unmarked)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.games.test_messages_marked import ROOT, _words, unmarked

SOURCES = sorted(
    path
    for pattern in (
        "tournaments/*.py",
        "tournaments/forms/*.py",
        "tournaments/models/*.py",
        "tournaments/services/*.py",
        "tournaments/views/*.py",
        "tournaments/api/*.py",
        "scoring/seating/*.py",
    )
    for path in ROOT.glob(pattern)
)


def test_the_sources_are_found() -> None:
    names = {str(path.relative_to(ROOT)) for path in SOURCES}
    assert {"tournaments/forms/organise.py", "tournaments/services/players.py"} <= names
    assert "scoring/seating/draw.py" in names
    labelled = {str(path.relative_to(ROOT)) for path in LABELLED}
    assert {
        "tournaments/forms/organise.py",
        "tournaments/models/tournaments.py",
        "tournaments/selectors.py",
    } <= labelled


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_messages_are_marked_for_translation(path: Path) -> None:
    assert unmarked(path) == []


# Keyword arguments whose text a person reads on a form or a page (model fields included).
READ_KEYWORDS = {"label", "help_text", "empty_label", "verbose_name"}


def unmarked_labels(path: Path) -> list[str]:
    """`label="Name"`-style keyword arguments and the members of a `TextChoices` class
    (`NAME = "value", "Label"`) whose words are a bare string or an f-string instead of a
    `gettext_lazy(...)` call."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in READ_KEYWORDS:
            if _words(node.value):
                found.append(f"{path.relative_to(ROOT)}:{node.value.lineno}")
        elif isinstance(node, ast.ClassDef) and any(
            getattr(base, "attr", getattr(base, "id", "")).endswith("Choices")
            for base in node.bases
        ):
            found += [
                f"{path.relative_to(ROOT)}:{member.lineno}"
                for member in node.body
                if isinstance(member, ast.Assign)
                and isinstance(member.value, ast.Tuple)
                and len(member.value.elts) == 2
                and _words(member.value.elts[1])
            ]
    return sorted(found, key=lambda where: int(where.rsplit(":", 1)[1]))


LABELLED = sorted(
    path
    for pattern in (
        "tournaments/forms/*.py",
        "tournaments/models/*.py",
        "tournaments/selectors.py",
    )
    for path in ROOT.glob(pattern)
)


@pytest.mark.parametrize("path", LABELLED, ids=lambda path: str(path.relative_to(ROOT)))
def test_labels_help_and_choices_are_marked_for_translation(path: Path) -> None:
    assert unmarked_labels(path) == []


def test_the_label_check_finds_a_bare_label(tmp_path: Path) -> None:
    source = tmp_path / "forms.py"
    source.write_text(
        "name = forms.CharField(label='Name', help_text=gettext_lazy('Yours.'))\n"
        "class Status(models.TextChoices):\n"
        "    RUNNING = 'running', 'Running'\n"
        "    DONE = 'done', pgettext_lazy('stage status', 'Done')\n"
        "QUALIFICATION = ('qualify_slots', 'qualify_event')\n"
    )
    global ROOT
    before, ROOT = ROOT, tmp_path
    try:
        assert unmarked_labels(source) == ["forms.py:1", "forms.py:3"]
    finally:
        ROOT = before
