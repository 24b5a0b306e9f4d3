"""The score after sanctions has one definition for the pages and exports
(`games.selectors.games.racks_scored`), one in the standings SQL and the engine's reference
(`scoring.game.GameIn.sanctions`); they must agree, game by game and in total, with voided
sanctions, corrections and unconfirmed versions around."""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.db.models import Prefetch

from games.models import Game, Result
from games.selectors.games import racks_scored
from games.services.results import penalty_record, penalty_void, result_submit
from games.services.standings import standings_recompute
from scoring.game import GameIn, RackIn, score_game
from scoring.tiles import parse_tiles
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, rummikub_racks, seated


@pytest.fixture
def played(alice, bob):
    t = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(t, alice)
    games = list(
        Game.objects.filter(table__round__tournament=t).order_by("table__number", "number")
    )
    for game in games[:5]:
        enter_rummikub(game, bob)
    first, second = games[0], games[1]
    p = seated(first)
    penalty_record(game=first, by=bob, player=p[1], kind="sanction", points=7)
    penalty_record(game=first, by=bob, player=p[1], kind="sanction", points=3)
    voided = penalty_record(game=first, by=bob, player=p[2], kind="sanction", points=50)
    penalty_void(penalty=voided, by=bob)
    penalty_record(game=second, by=bob, player=seated(second)[0], kind="sanction", points=11)
    # A correction: version 2 replaces version 1 of the first game.
    result_submit(
        game=first,
        by=bob,
        based_on=1,
        end="rummikub",
        winner=p[0],
        racks=rummikub_racks(first, "R9", "B2 B3", "J"),
    )
    # A sanction in a game without a result counts nowhere (there is no score to take it from).
    penalty_record(game=games[6], by=bob, player=seated(games[6])[0], kind="sanction", points=9)
    return t


def test_pages_and_standings_take_off_the_same_sanctions(played):
    racks = racks_scored().filter(
        result__game__table__round__tournament=played, result__status="confirmed"
    )
    total: dict[int, int] = defaultdict(int)
    best: dict[int, int] = {}
    for rack in racks:
        total[rack.player_id] += rack.net_score
        best[rack.player_id] = max(best.get(rack.player_id, rack.net_score), rack.net_score)
    snapshot = standings_recompute(tournament_id=played.pk)
    rows = {row["player"]["id"]: row["metrics"] for row in snapshot.rows}
    assert {p: rows[p]["score"] for p in total} == dict(total)
    assert {p: rows[p]["best_game"] for p in best} == best
    # The sanctions really are in there: 10 off one player in game 1, 11 off another.
    assert sorted(r.sanction for r in racks if r.sanction) == [10, 11]


def test_the_engine_scores_each_stored_game_after_sanctions_the_same_way(played):
    """The engine's own sanction path (`GameIn.sanctions`) is the reference: each
    confirmed game, scored again from its stored racks with its sanctions, gives every
    player the score after sanctions the pages show."""
    rules = played.rule_set
    confirmed = Result.objects.filter(
        game__table__round__tournament=played, status=Result.Status.CONFIRMED
    ).prefetch_related(Prefetch("racks", queryset=racks_scored()))
    checked = 0
    for result in confirmed:
        racks = list(result.racks.all())
        game_in = GameIn(
            end=result.end,
            racks=tuple(
                RackIn(
                    player=rack.player_id,
                    tiles=None if rack.tiles is None else parse_tiles(rack.tiles),
                    points=rack.points if rack.tiles is None else None,
                    tile_count=rack.tile_count if rack.tiles is None else None,
                    jokers=rack.jokers if rack.tiles is None else 0,
                    no_meld=rack.no_meld,
                )
                for rack in racks
            ),
            winner=next(rack.player_id for rack in racks if rack.winner),
            sanctions={rack.player_id: rack.sanction for rack in racks if rack.sanction},
        )
        scored = {out.player: out.score for out in score_game(game_in, rules).racks}
        assert scored == {rack.player_id: rack.net_score for rack in racks}
        checked += 1
    assert checked == 5
