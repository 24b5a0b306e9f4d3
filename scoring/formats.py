"""Formats as templates: the catalogue of ready tournament formats, as data. Pure Python.

Terms
-----
format
    A tournament's whole shape as a real event plays it: the rule preset and options,
    players per table, games per table, the ranking, the stages with their entry rules
    and play settings, divisions, qualification slots, a target score, a season rule.
    "New tournament from a format" (``tournaments.services.formats``) creates the
    tournament, its divisions and stages from one entry, ready to seat.
source
    Where the format comes from: the published rules or practice it follows, in words
    (``source``); ``docs/guide/formats.md`` describes each with a worked example.
stage plan
    One stage of a format (``StagePlan``): the fields ``tournaments.services.stages``
    checks, a division named by its slug, a source by its stage number.

Decisions where the sources are silent (docs/rules/decisions.md, "Formats")
---------------------------------------------------------------------------
* Where a source gives no number (rounds planned, a race's games cap), the template
  takes a usual one and says so in its description; every setting stays editable
  after creation like any tournament's, until the first result locks the rules.
* A format's stages are all created at once, upcoming; nothing is seated until the
  organiser opens round 1 (players are registered first).
* The season league's season needs a club: applied with a club the organiser runs, the
  tournament is held in that club's season of the format's name (made when missing);
  without one, the tournament is made alone and the page says how to join a season.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scoring.i18n import gettext_noop


@dataclass(frozen=True)
class StagePlan:
    """One stage of a format; every field as ``stage_create`` takes it."""

    name: str
    kind: str = "qualification"
    ranking: tuple[str, ...] | None = None
    carry_over: str = "none"
    carry_rounding: str = "toward_zero"
    entry: str = ""
    cut_top: int | None = None
    cut_min_score: int | None = None
    cut_ties: str = "lot"
    rank_from: int | None = None
    rank_to: int | None = None
    table_top: int | None = None
    best_losers: int = 0
    source: int | None = None
    division: str | None = None  # a division's slug
    reseat_every_game: bool = False
    race_target: int | None = None
    race_cap: int | None = None
    rounds_planned: int | None = None
    games_per_table: int | None = None
    seating: str = ""

    def settings(self) -> dict[str, Any]:
        """The stage's settings as ``stage_create`` takes them (unset ones left out)."""
        values: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "carry_over": self.carry_over,
            "carry_rounding": self.carry_rounding,
            "cut_ties": self.cut_ties,
            "reseat_every_game": self.reseat_every_game,
            "best_losers": self.best_losers,
            "seating": self.seating,
        }
        if self.ranking is not None:
            values["ranking"] = list(self.ranking)
        for name in (
            "entry",
            "cut_top",
            "cut_min_score",
            "rank_from",
            "rank_to",
            "table_top",
            "source",
            "division",
            "race_target",
            "race_cap",
            "rounds_planned",
            "games_per_table",
        ):
            value = getattr(self, name)
            if value not in (None, ""):
                values[name] = value
        return values


@dataclass(frozen=True)
class Format:
    """One entry of the catalogue (see the module doc)."""

    key: str
    name: str
    description: str
    source: str
    preset: str = "standard"
    rules: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    ranking: tuple[str, ...] | None = None
    table_size: int = 4
    games_per_table: int | None = None
    rounds_planned: int | None = None
    target_score: int | None = None
    target_games_cap: int | None = None
    divisions: tuple[str, ...] = ()
    stages: tuple[StagePlan, ...] = ()
    qualify_slots: int | None = None
    qualify_event: str = ""
    qualify_stage: int | None = None
    season_rule: Mapping[str, Any] | None = None
    # The field the worked example (docs) and the end-to-end test play with.
    example_players: int = 8

    def tournament_settings(self) -> dict[str, Any]:
        """The settings ``tournament_create`` takes (name and date come from the user)."""
        values: dict[str, Any] = {
            "preset": self.preset,
            "rules": dict(self.rules),
            "table_size": self.table_size,
            "games_per_table": self.games_per_table,
            "rounds_planned": self.rounds_planned,
            "target_score": self.target_score,
            "target_games_cap": self.target_games_cap,
        }
        if self.ranking is not None:
            values["ranking"] = list(self.ranking)
        return values


PLACEMENT_4310 = {"4": [4, 3, 1, 0], "3": [4, 2, 0], "2": [4, 0]}
COUNTBACK = ("score", "best_game", "second_best_game", "third_best_game", "lot")

CATALOGUE: tuple[Format, ...] = (
    Format(
        key="club-evening",
        name=gettext_noop("Club evening"),
        description=gettext_noop(
            "One field, 3 rounds of a series per table, random seating with fewest repeat "
            "meetings; ranked by games won, then score."
        ),
        source=gettext_noop(
            "The standard rules' scoring and the usual club practice of a few random "
            "rounds in an evening (Rummitab's standard preset)."
        ),
        rounds_planned=3,
        stages=(StagePlan("Evening", rounds_planned=3, seating="random"),),
    ),
    Format(
        key="swiss-saturday",
        name=gettext_noop("Swiss club Saturday"),
        description=gettext_noop(
            "5 Swiss rounds: each round seats players of like standing together; ranked by "
            "games won, score, then opponents' score."
        ),
        source=gettext_noop(
            "Swiss pairing as clubs run a day event (the Swiss draw of Rummitab's seating "
            "engine); 5 rounds is a usual day, chosen here."
        ),
        ranking=("games_won", "score", "opponents_score", "lot"),
        rounds_planned=5,
        example_players=12,
        stages=(StagePlan("Swiss rounds", rounds_planned=5, seating="swiss"),),
    ),
    Format(
        key="german-city",
        name=gettext_noop("German city championship"),
        description=gettext_noop(
            "4 rounds of 4 games per table, placement points 4/3/1/0 per game, then score; "
            "a Juniors division with its own prizes."
        ),
        source=gettext_noop(
            "A German city championship's published format (4 rounds x 4 games, placement "
            "points 4-3-1-0, a juniors ranking), as surveyed for Rummitab."
        ),
        rules=MappingProxyType({"placement_points": PLACEMENT_4310}),
        ranking=("placement_points", "score", "lot"),
        games_per_table=4,
        rounds_planned=4,
        divisions=("Juniors",),
        example_players=12,
        stages=(StagePlan("Championship", rounds_planned=4, seating="random"),),
    ),
    Format(
        key="dutch-championship",
        name=gettext_noop("Dutch championship"),
        description=gettext_noop(
            "Qualification rounds, a cut to the top 8, and a final of 8 played as 'first to "
            "4 wins' (at most 9 games; the decider settles a tie)."
        ),
        source=gettext_noop(
            "The Dutch national championship's format (qualification, cut, a final of 8 "
            "'first to 4 wins'), as surveyed for Rummitab; the cap of 9 is chosen here."
        ),
        ranking=("score", "games_won", "lot"),
        rounds_planned=4,
        example_players=16,
        stages=(
            StagePlan("Qualification", rounds_planned=4, seating="random"),
            StagePlan(
                "Final",
                kind="final",
                entry="top",
                cut_top=8,
                race_target=4,
                race_cap=9,
                seating="swiss",
            ),
        ),
    ),
    Format(
        key="japanese-championship",
        name=gettext_noop("Japanese championship"),
        description=gettext_noop(
            "Qualification; the top 8 play a semi-final re-seated every game (4 games, "
            "snake by seed); the top 4 play the final table; scores carried in full; ties "
            "by the best game, then the second and third best (countback)."
        ),
        source=gettext_noop(
            "The Japanese championship's format (qualification, cut to 8, semi-final "
            "re-seated every game, cut to 4, all scores carried) and a Japanese club "
            "regulation's countback, as surveyed for Rummitab."
        ),
        ranking=COUNTBACK,
        rounds_planned=3,
        example_players=16,
        stages=(
            StagePlan("Qualification", rounds_planned=3, seating="random"),
            StagePlan(
                "Semi-final",
                kind="semi_final",
                entry="top",
                cut_top=8,
                carry_over="all",
                reseat_every_game=True,
                games_per_table=4,
                seating="snake",
            ),
            StagePlan(
                "Final table",
                kind="final",
                entry="top",
                cut_top=4,
                carry_over="all",
                rounds_planned=1,
                games_per_table=4,
                seating="alternating",
            ),
        ),
    ),
    Format(
        key="polish-qualifier",
        name=gettext_noop("Polish qualifier"),
        description=gettext_noop(
            "4 rounds of 4 games per table, then a final table of the top 4 (4 games, half "
            "the score carried); 2 slots to the national final by the final's order, "
            "passed down past players already qualified."
        ),
        source=gettext_noop(
            "A Polish qualifying tournament's format (4 rounds x 4 games and a final, "
            "qualification slots passing down), as surveyed for Rummitab; 2 slots and the "
            "half carry are chosen here."
        ),
        ranking=("score", "games_won", "lot"),
        games_per_table=4,
        rounds_planned=4,
        qualify_slots=2,
        qualify_event="Polish championship",
        qualify_stage=2,
        example_players=12,
        stages=(
            StagePlan("Qualification", rounds_planned=4, seating="random"),
            StagePlan(
                "Final",
                kind="final",
                entry="top",
                cut_top=4,
                carry_over="half",
                rounds_planned=1,
                games_per_table=4,
                seating="random",
            ),
        ),
    ),
    Format(
        key="belgian-open",
        name=gettext_noop("Belgian open"),
        description=gettext_noop(
            "Qualification at 3 games per table, semi-finals of the top 8 at 2 games "
            "(seeded alternately: 1, 3, 5, 7 / 2, 4, 6, 8), a final table of the top 4 "
            "playing 1 game."
        ),
        source=gettext_noop(
            "A Belgian open's format (3, then 2, then 1 game per table; semi-finals seated "
            "alternately by rank), as surveyed for Rummitab."
        ),
        ranking=("score", "games_won", "lot"),
        games_per_table=3,
        rounds_planned=3,
        example_players=16,
        stages=(
            StagePlan("Qualification", rounds_planned=3, games_per_table=3, seating="random"),
            StagePlan(
                "Semi-finals",
                kind="semi_final",
                entry="top",
                cut_top=8,
                rounds_planned=1,
                games_per_table=2,
                seating="alternating",
            ),
            StagePlan(
                "Final",
                kind="final",
                entry="top",
                cut_top=4,
                rounds_planned=1,
                games_per_table=1,
                seating="random",
            ),
        ),
    ),
    Format(
        key="us-senior-games",
        name=gettext_noop("US senior games"),
        description=gettext_noop(
            "A preliminary round at tables of 3 or 4 (3 games); each table's winner goes "
            "on to the final table(s)."
        ),
        source=gettext_noop(
            "US senior games' Rummikub events (tables of 3 or 4, table winners advance), "
            "as surveyed for Rummitab."
        ),
        ranking=("score", "games_won", "lot"),
        games_per_table=3,
        example_players=14,
        stages=(
            StagePlan("Preliminary", rounds_planned=1, seating="random"),
            StagePlan(
                "Final",
                kind="final",
                entry="tables",
                table_top=1,
                rounds_planned=1,
                seating="random",
            ),
        ),
    ),
    Format(
        key="target-club-night",
        name=gettext_noop("Target-score club night"),
        description=gettext_noop(
            "Each table plays until someone's match total reaches 100 (at most 6 games); "
            "ranked by matches won, then match points, then score."
        ),
        source=gettext_noop(
            "The seed rule 'the player reaching the desired point total wins' (Rummitab's "
            "target-score matches); 100 points and a cap of 6 games are chosen here."
        ),
        ranking=("matches_won", "match_points", "score", "lot"),
        target_score=100,
        target_games_cap=6,
        rounds_planned=2,
        stages=(StagePlan("Club night", rounds_planned=2, seating="random"),),
    ),
    Format(
        key="season-league",
        name=gettext_noop("Season league evening"),
        description=gettext_noop(
            "One league evening of 2 rounds; held in the club's season 'League', which "
            "counts each member's best 20 games of the season."
        ),
        source=gettext_noop(
            "A UK league's practice of counting the best 20 games of the year, as surveyed "
            "for Rummitab (Rummitab's seasons, rule best N games)."
        ),
        preset="league",
        rounds_planned=2,
        season_rule=MappingProxyType({"rule": "best_games", "best": 20}),
        stages=(StagePlan("Evening", rounds_planned=2, seating="random"),),
    ),
)

BY_KEY: Mapping[str, Format] = MappingProxyType({f.key: f for f in CATALOGUE})
SEASON_NAME = "League"
