"""Translated labels are used as translated, and help texts name what the page shows:

* no template lower-cases a choice's label (`get_…_display|lower`) and no Python code
  lower-cases a translated label (German capitalises its nouns: "Punkte", not "punkte");
* the ranking help names each metric as its catalog says;
* the help of a dropdown names its options by their labels (in every language the
  catalogs translate: the translator's help must say the translated labels);
* the English source says "2 for the MSO preset", not "mso 2", and "no member of", not
  "member no member of"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from scoring.standings import METRICS
from tournaments.forms.organise import TournamentForm
from tournaments.models import Tournament

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ("en", "nl", "de", "pl", "he")


def test_no_template_lower_cases_a_choice_label():
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in (ROOT / "templates").rglob("*.html")
        for match in re.finditer(r"get_\w+_display\|lower", path.read_text())
    ]
    assert offenders == []


def test_no_python_code_lower_cases_a_translated_label():
    pattern = re.compile(r"(get_\w+_display\(\)|gettext\([^)]*\)|\b_\([^)]*\))\.lower\(\)")
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for package in ("games", "tournaments", "config", "scoring")
        for path in (ROOT / package).rglob("*.py")
        for match in pattern.finditer(path.read_text())
    ]
    assert offenders == []


def test_the_ranking_help_names_each_metric_as_translated():
    with translation.override("de"):
        help_text = str(TournamentForm().fields["ranking"].help_text)
        score = gettext(METRICS["score"].name)
    assert score[0].isupper()  # "Punkte": German capitalises its nouns
    assert f"score ({score})" in help_text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("field", "choices"),
    [
        ("missed_rounds", Tournament.MissedRounds),
        ("forfeit_rule", Tournament.ForfeitRule),
    ],
)
def test_a_dropdown_s_help_names_its_options_by_their_labels(language, field, choices):
    with translation.override(language):
        form = TournamentForm(editing=True)
        help_text = str(form.fields[field].help_text)
        labels = [str(label) for label in choices.labels]
    missing = [label for label in labels if label not in help_text]
    assert missing == [], help_text


def test_the_english_source_says_what_it_means():
    form = TournamentForm()
    assert "2 for the MSO preset" in str(form.fields["table_size"].help_text)
    sources = "\n".join(
        path.read_text()
        for package in ("tournaments", "games")
        for path in (ROOT / package).rglob("*.py")
    )
    assert "mso 2" not in sources
    assert "member no member of" not in sources
