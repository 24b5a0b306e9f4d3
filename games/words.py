"""The games app's sentences: how the pages, the API's messages and the webhooks say a
table list, a seated player, a match's winner, a stage's game and state, and the
tournament's forfeit rule. Builders of words only (`scoring.seating.words` does the same
for the draw): the reads and writes that need a sentence call these.

Terms:
* label — how messages name a seated player: "Ada (seat 2)" (`seat_label`), a name and a
  seat, never a database id.
* stage game — in a stage of one game per round (re-seated every game, or a race to N),
  the game a round plays in the stage: "re-seated every game: game 2 of 4".
"""

from __future__ import annotations

from typing import Protocol

from django.utils.translation import gettext as _

from scoring.game import forfeit_charge
from scoring.match import MatchState
from scoring.rules import games_at
from tournaments.models import Player, Round, Stage, Tournament


class Decided(Protocol):
    """What a stage's state needs of its race (`games.services.stages.RaceView`)."""

    @property
    def over(self) -> bool: ...


def tables_phrase(numbers: list[int]) -> str:
    """ "table 2", "tables 1 and 4", "tables 1, 3 and 4"."""
    if len(numbers) == 1:
        return _("table {number}").format(number=numbers[0])
    return _("tables {numbers} and {last}").format(
        numbers=", ".join(map(str, numbers[:-1])), last=numbers[-1]
    )


def seat_label(player: Player, position: int) -> str:
    """How messages name a seated player: "Ada (seat 2)" — a name and a seat, never an id."""
    return _("{name} (seat {position})").format(name=player.name, position=position)


def match_sentence(state: MatchState, names: dict[int, str]) -> str:
    """ "Ann, 112 of 100" (the winner(s), their total, the target)."""
    who = ", ".join(names.get(p, "?") for p in state.winners)
    total = state.totals[state.winners[0]] if state.winners else state.leader_total
    return _("{who}, {total} of {target}").format(who=who, total=total, target=state.target)


def stage_games_planned(stage: Stage) -> int | None:
    """How many games a one-game-per-round stage plays: a re-seated stage, a table's
    series elsewhere (`games_per_table`, else the table size); a race, at most its cap
    (more only while the decider leaves a tie). None for other stages."""
    if stage.race_target is not None:
        return stage.race_cap
    if stage.reseat_every_game:
        tournament = stage.tournament
        return games_at(tournament.table_size, stage.games_per_table or tournament.games_per_table)
    return None


def stage_game_words(stage: Stage, game: int) -> str:
    """ "re-seated every game: game 2 of 4" / "race to 4 wins: game 3 of at most 9"."""
    planned = stage_games_planned(stage)
    if stage.race_target is not None:
        return _("first to %(target)s wins: game %(game)s of at most %(cap)s") % {
            "target": stage.race_target,
            "game": game,
            "cap": planned,
        }
    if stage.reseat_every_game:
        return _("re-seated every game: game %(game)s of %(games)s") % {
            "game": game,
            "games": planned,
        }
    return ""


def round_stage_words(round_: Round) -> str:
    """What a round of a one-game stage is (its game in the stage), or ""."""
    stage = round_.stage
    if stage is None or not stage.one_game_rounds:
        return ""
    game = Round.objects.filter(stage=stage, number__lte=round_.number).count()
    return stage_game_words(stage, game)


def stage_state_words(stage: Stage, race: Decided | None) -> str:
    """A stage's state as every page says it: "Decided" once its race is won or decided
    (the stage stays open in the data, as a correction that undoes the decision reopens
    the race, but nothing more is played in it), else its status ("Next", "Running",
    "Done"). The one source of the label, so the timeline and the stage's own page agree."""
    if race is not None and race.over and stage.status != Stage.Status.CLOSED:
        return _("Decided")
    return str(stage.get_status_display())


def forfeit_rule_text(tournament: Tournament) -> str:
    """The tournament's forfeit rule in words, with its charge (`scoring.game`)."""
    charge = forfeit_charge(tournament.rule_set)
    if tournament.forfeit_rule == Tournament.ForfeitRule.SHARED:
        return _(
            "Forfeit: the absent seat scores -{charge}; the players present all win the "
            "game and share the {charge} points."
        ).format(charge=charge)
    return _("Forfeit: the absent seat scores -{charge}; the players present score 0.").format(
        charge=charge
    )
