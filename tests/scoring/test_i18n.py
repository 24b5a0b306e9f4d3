"""The engine's translation hook routes through whatever translator is installed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scoring import i18n
from scoring.errors import MAX_LISTED_ERRORS, RuleError, as_error_dict
from scoring.game import RackIn, check_readable
from scoring.stages import CutTie
from scoring.standings import METRICS
from scoring.tiles import parse_tile
from tests.scoring.helpers import STANDARD


@pytest.fixture
def fake_translator() -> Iterator[None]:
    before = (i18n._translate, i18n._translate_plural)
    i18n.install(
        lambda message: f"<{message}>",
        lambda singular, plural, count: f"<{singular if count == 1 else plural}|{count}>",
    )
    try:
        yield
    finally:
        i18n.install(*before)


def test_messages_go_through_the_installed_translator(fake_translator: None) -> None:
    assert i18n._("{player} appears twice").format(player="Ann") == "<Ann appears twice>"
    assert i18n.ngettext("one {n}", "many {n}", 3) == "<many {n}|3>"
    assert i18n.gettext_noop("Points") == "Points"


def test_the_more_problems_line_is_translated(fake_translator: None) -> None:
    errors = [RuleError(("x",), "bad") for _ in range(MAX_LISTED_ERRORS + 2)]
    shaped = as_error_dict(errors)
    assert shaped["non_field_errors"][-1] == "<… and 2 more problems not listed here.|2>"


def test_without_a_translator_the_more_problems_line_stays_english() -> None:
    errors = [RuleError(("x",), "bad") for _ in range(MAX_LISTED_ERRORS + 1)]
    assert as_error_dict(errors)["non_field_errors"][-1] == (
        "… and 1 more problem not listed here."
    )


def test_a_tile_error_is_one_translated_sentence(fake_translator: None) -> None:
    with pytest.raises(RuleError) as raised:
        parse_tile("X5")
    assert raised.value.message.startswith("<unknown colour 'X' in tile 'X5'; <write a colour")


def test_game_messages_name_the_player_in_the_translated_sentence(fake_translator: None) -> None:
    racks = (RackIn(player=1, tiles=()), RackIn(player=2, tiles=()))
    errors = check_readable("rummikub", None, racks, STANDARD)
    assert [error.message for error in errors] == [
        "<<<player 1> and <player 2>> all have blank racks; choose the winner who went out>"
    ]


def test_metric_names_stay_english_until_shown(fake_translator: None) -> None:
    score = METRICS["score"]
    assert (score.name, score.abbr) == ("Score", "Pts")
    shown = score.translated()
    assert (shown.name, shown.abbr, shown.key) == ("<Score>", "<Pts>", "score")


@pytest.mark.parametrize(
    ("places", "resolution", "expected"),
    [
        (1, "include", "<{players} players share rank {rank} for {places} place: all go on|1>"),
        (2, "lot", "<{players} players share rank {rank} for {places} places: decided by lot|2>"),
    ],
)
def test_a_cut_tie_sentence_follows_the_places_left(
    fake_translator: None, places: int, resolution: str, expected: str
) -> None:
    tie = CutTie(rank=3, players=(1, 2, 3), places=places, resolution=resolution)  # type: ignore[arg-type]
    assert tie.sentence() == expected.format(players=3, rank=3, places=places)
