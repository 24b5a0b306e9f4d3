"""Tests of scoring.standings: the docs/rules/standings.md metrics, ranking and its validation.

The hand-made tournaments below come with expected values worked out by hand in the
comments; the property tests compare against a naive, per-player re-statement of §7.
"""

import hashlib
import itertools
import random
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.placement import DEFAULT_PLACEMENT_POINTS, placement_totals
from scoring.standings import (
    EXTRA_METRICS,
    METRICS,
    PER_GAME,
    PLACEMENT_METRICS,
    SERIES_METRICS,
    GameLine,
    PlayerTotals,
    SeriesLine,
    StandingRow,
    compute_standings,
    compute_standings_from_series,
    compute_standings_from_totals,
    finishes,
    fold_games,
    lot_draw,
    needs_placement,
    per_game,
    validate_ranking,
)

# The metrics ranked from the lines alone (the extra ones, countback and matches, have
# their own tests: tests/scoring/test_countback.py, tests/scoring/test_match.py).
RANKABLE = [
    key
    for key, metric in METRICS.items()
    if metric.direction is not None and key not in EXTRA_METRICS
]


def rummikub_game(
    rnd: int,
    table: int,
    game: int,
    winner: int,
    charges: dict[int, int],
    sanctions: dict[int, int] | None = None,
) -> list[GameLine]:
    """A game won by emptying the rack: the winner scores the losers' charges."""
    sanctions = sanctions or {}
    won = sum(charges.values()) - sanctions.get(winner, 0)
    lines = [GameLine(winner, rnd, table, game, won, 0, True, True)]
    for player, charge in charges.items():
        score = -charge - sanctions.get(player, 0)
        lines.append(GameLine(player, rnd, table, game, score, charge, False, False))
    return lines


def exhausted_game(
    rnd: int, table: int, game: int, winners: list[int], paid: dict[int, int]
) -> list[GameLine]:
    """A pool-exhausted game: each (tied) winner scores the sum of what the losers pay."""
    won = sum(paid.values())
    lines = [GameLine(w, rnd, table, game, won, 0, True, False) for w in winners]
    lines += [GameLine(p, rnd, table, game, -c, c, False, False) for p, c in paid.items()]
    return lines


def standings(players, lines, ranking, penalties=None, lot_seed="club-open"):
    return compute_standings(
        players=players,
        lines=lines,
        penalties=penalties or {},
        ranking=ranking,
        lot_seed=lot_seed,
    )


def placing(rows: list[StandingRow]) -> list[tuple[int, int]]:
    return [(row.player, row.rank) for row in rows]


def column(rows: list[StandingRow], key: str) -> dict[int, int]:
    return {row.player: row.metrics[key] for row in rows}


# --- CLUB: 7 registered players, 2 rounds -------------------------------------------------
#
# Round 1: table 101 seats 1, 2, 3 (three games); table 102 seats 4, 5, 6 (two confirmed
# games; their third game has no confirmed result, so it is simply not among the lines).
# Round 2: table 201 seats 1, 4, 5 (two games); table 202 seats 2, 3, 6 (one game).
# Player 7 withdrew before playing: registered, no games.
CLUB_PLAYERS = [1, 2, 3, 4, 5, 6, 7]
CLUB_LINES = [
    *rummikub_game(1, 101, 1001, winner=1, charges={2: 10, 3: 5}),  # 1 +15, 2 -10, 3 -5
    *rummikub_game(1, 101, 1002, winner=2, charges={1: 20, 3: 4}),  # 2 +24, 1 -20, 3 -4
    *exhausted_game(1, 101, 1003, winners=[1, 3], paid={2: 6}),  # 1 +6, 3 +6, 2 -6
    *rummikub_game(1, 102, 1004, winner=4, charges={5: 7, 6: 3}),  # 4 +10, 5 -7, 6 -3
    # 6 pays 8 and a referee's sanction of 5 comes off 6's score: 5 +10, 4 -2, 6 -13
    *rummikub_game(1, 102, 1005, winner=5, charges={4: 2, 6: 8}, sanctions={6: 5}),
    *rummikub_game(2, 201, 2001, winner=4, charges={1: 9, 5: 1}),  # 4 +10, 1 -9, 5 -1
    *rummikub_game(2, 201, 2002, winner=1, charges={4: 5, 5: 4}),  # 1 +9, 4 -5, 5 -4
    *exhausted_game(2, 202, 2003, winners=[6], paid={2: 3, 3: 3}),  # 6 +6, 2 -3, 3 -3
]
CLUB_PENALTIES = {3: 1, 6: 2}

# Final scores, used by opponents_score: 1: 1, 2: 5, 3: -6, 4: 13, 5: -2, 6: -10, 7: 0.
# Series scores: table 101: 1 → 15-20+6 = 1, 2 → -10+24-6 = 8, 3 → -5-4+6 = -3 (2 wins);
# 102: 4 → 8, 5 → 3, 6 → -16 (4 wins); 201: 1 → 0, 4 → 5, 5 → -5 (4 wins); 202: 6 wins.
CLUB_EXPECTED = {
    "score": {1: 1, 2: 5, 3: -6, 4: 13, 5: -2, 6: -10, 7: 0},
    # 1 won 1001, 1003 (tied with 3, counts for each) and 2002
    "games_won": {1: 3, 2: 1, 3: 1, 4: 2, 5: 1, 6: 1, 7: 0},
    "games_played": {1: 5, 2: 4, 3: 4, 4: 4, 5: 4, 6: 3, 7: 0},
    # pool-exhausted wins (1003 for 1 and 3, 2003 for 6) are not rummikubs
    "rummikubs": {1: 2, 2: 1, 3: 0, 4: 2, 5: 1, 6: 0, 7: 0},
    # own charges as a loser; 6's sanction is not a charge: 3 + 8 = 11
    "rack_total": {1: 29, 2: 19, 3: 12, 4: 7, 5: 12, 6: 11, 7: 0},
    "table_wins": {1: 0, 2: 1, 3: 0, 4: 2, 5: 0, 6: 1, 7: 0},
    # 1: round 1 met 2, 3 → 5-6 = -1; round 2 met 4, 5 → 13-2 = 11; total 10.
    # 2: met 1, 3 → -5; then 3, 6 → -16: 3 met in both rounds counts twice; total -21.
    # 3: met 1, 2 → 6; then 2, 6 → -5; total 1.  4: 5, 6 → -12; 1, 5 → -1; total -13.
    # 5: 4, 6 → 3; 1, 4 → 14; total 17.  6: 4, 5 → 11; 2, 3 → -1; total 10.
    "opponents_score": {1: 10, 2: -21, 3: 1, 4: -13, 5: 17, 6: 10, 7: 0},
    # 7 has no game: 0, like their score
    "best_game": {1: 15, 2: 24, 3: 6, 4: 10, 5: 10, 6: 6, 7: 0},
    "penalties": {1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 2, 7: 0},
}


@pytest.mark.parametrize("key", list(CLUB_EXPECTED))
def test_club_metric(key):
    rows = standings(CLUB_PLAYERS, CLUB_LINES, ["score"], CLUB_PENALTIES)
    assert column(rows, key) == CLUB_EXPECTED[key]


@pytest.mark.parametrize(
    ("ranking", "expected"),
    [
        # the standard preset: games won, then score
        (["games_won", "score"], [(1, 1), (4, 2), (2, 3), (5, 4), (3, 5), (6, 6), (7, 7)]),
        (["score"], [(4, 1), (2, 2), (1, 3), (7, 4), (5, 5), (3, 6), (6, 7)]),
        # lower is better; 3 and 5 share 12 and so rank 4, and the next is 6th
        (["rack_total"], [(7, 1), (4, 2), (6, 3), (3, 4), (5, 4), (2, 6), (1, 7)]),
        (["table_wins", "score"], [(4, 1), (2, 2), (6, 3), (1, 4), (7, 5), (5, 6), (3, 7)]),
        (
            ["penalties", "opponents_score"],
            [(5, 1), (1, 2), (7, 3), (4, 4), (2, 5), (3, 6), (6, 7)],
        ),
        # 4 and 5 both 10: rummikubs 2 > 1; 3 and 6 both 6 with no rummikub: shared 5th
        (["best_game", "rummikubs"], [(2, 1), (1, 2), (4, 3), (5, 4), (3, 5), (6, 5), (7, 7)]),
    ],
)
def test_club_ranking(ranking, expected):
    rows = standings(CLUB_PLAYERS, CLUB_LINES, ranking, CLUB_PENALTIES)
    assert placing(rows) == expected


def test_club_head_to_head_within_games_won_groups():
    # games_won groups: {1}, {4}, {2, 3, 5, 6}, {7}. In the group of four:
    # 2 sat with 3 in all four of their games → 5; 3 likewise → -6;
    # 5 sat with 6 in 1004 and 1005 (-7 + 10 = 3), not in 2001 and 2002 (only 1 and 4);
    # 6 with 5 in 1004 and 1005 (-3 - 13), with 2 and 3 in 2003 (+6) → -10.
    # Alone in their group, 1, 4 and 7 have 0.
    rows = standings(CLUB_PLAYERS, CLUB_LINES, ["games_won", "head_to_head", "score"])
    assert column(rows, "head_to_head") == {1: 0, 2: 5, 3: -6, 4: 0, 5: 3, 6: -10, 7: 0}
    assert placing(rows) == [(1, 1), (4, 2), (2, 3), (5, 4), (3, 5), (6, 6), (7, 7)]


# --- TIED: 1 and 2 end equal on score; 1 beat 2 when they met ------------------------------
TIED_LINES = [
    *rummikub_game(1, 1, 1, winner=1, charges={2: 10}),  # 1 +10, 2 -10
    *rummikub_game(1, 2, 2, winner=3, charges={4: 5}),  # 3 +5, 4 -5
    *rummikub_game(2, 3, 3, winner=3, charges={1: 10}),  # 3 +10, 1 -10
    *rummikub_game(2, 4, 4, winner=2, charges={4: 10}),  # 2 +10, 4 -10
]  # scores: 1: 0, 2: 0, 3: 15, 4: -15


def test_competition_ranking_shares_a_rank_and_skips_the_next():
    rows = standings([1, 2, 3, 4], TIED_LINES, ["score"])
    assert [row.rank for row in rows] == [1, 2, 2, 4]
    assert [row.player for row in rows] == [3, 1, 2, 4]  # shared rank: by player id


def test_best_game_of_a_player_who_only_lost_is_negative():
    rows = standings([1, 2, 3, 4, 5], TIED_LINES, ["best_game"])
    # 4 lost -5 and -10; 5 played no game: 0, above 4
    assert column(rows, "best_game") == {1: 10, 2: 10, 3: 10, 4: -5, 5: 0}
    assert placing(rows) == [(1, 1), (2, 1), (3, 1), (5, 4), (4, 5)]


def test_head_to_head_resolves_a_tie():
    rows = standings([1, 2, 3, 4], TIED_LINES, ["score", "head_to_head"])
    assert placing(rows) == [(3, 1), (1, 2), (2, 3), (4, 4)]
    # only game 1 has both tied players; 3 and 4 are alone in their groups
    assert column(rows, "head_to_head") == {1: 10, 2: -10, 3: 0, 4: 0}


def test_head_to_head_first_makes_everyone_the_tied_group():
    # every game has two players, so each player's head_to_head is their whole score
    rows = standings([1, 2, 3, 4], TIED_LINES, ["head_to_head"])
    assert column(rows, "head_to_head") == {1: 0, 2: 0, 3: 15, 4: -15}
    assert placing(rows) == [(3, 1), (1, 2), (2, 2), (4, 4)]


def test_head_to_head_does_not_resolve_when_still_equal():
    # 1 and 2 met twice and won once each by 10; 3 and 4 played elsewhere
    lines = [
        *rummikub_game(1, 1, 1, winner=1, charges={2: 10}),
        *rummikub_game(1, 1, 2, winner=2, charges={1: 10}),
        *rummikub_game(1, 2, 3, winner=3, charges={4: 5}),
    ]
    rows = standings([1, 2, 3, 4], lines, ["score", "head_to_head"])
    assert column(rows, "head_to_head") == {1: 0, 2: 0, 3: 0, 4: 0}
    assert placing(rows) == [(3, 1), (1, 2), (2, 2), (4, 4)]


def test_head_to_head_of_tied_players_who_never_met_then_lot():
    lines = [
        *rummikub_game(1, 1, 1, winner=1, charges={3: 10}),
        *rummikub_game(1, 2, 2, winner=2, charges={4: 10}),
    ]
    rows = standings([1, 2, 3, 4], lines, ["score", "head_to_head"])
    assert placing(rows) == [(1, 1), (2, 1), (3, 3), (4, 3)]

    rows = standings([1, 2, 3, 4], lines, ["score", "head_to_head", "lot"], lot_seed="s")
    top = sorted([1, 2], key=lambda p: -lot_draw("s", p))
    bottom = sorted([3, 4], key=lambda p: -lot_draw("s", p))
    assert placing(rows) == [(top[0], 1), (top[1], 2), (bottom[0], 3), (bottom[1], 4)]


def test_head_to_head_counts_a_game_once_and_can_differ_from_score():
    lines = [
        *rummikub_game(1, 1, 1, winner=1, charges={2: 4, 3: 6}),  # 1 +10, 2 -4, 3 -6
        *rummikub_game(2, 2, 2, winner=2, charges={4: 7}),  # 2 +7, 4 -7
        *rummikub_game(2, 3, 3, winner=3, charges={5: 9}),  # 3 +9, 5 -9; 1 sits out
    ]
    # games_won: 1, 2, 3 have one each. Score would tie 2 and 3 (3 each);
    # head to head, only game 1 counts: 1 +10 (once, though two group members sat there),
    # 2 -4, 3 -6. 4 and 5 (no win) never met: equal.
    rows = standings([1, 2, 3, 4, 5], lines, ["games_won", "head_to_head"])
    assert column(rows, "head_to_head") == {1: 10, 2: -4, 3: -6, 4: 0, 5: 0}
    assert placing(rows) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 4)]

    rows = standings([1, 2, 3, 4, 5], lines, ["games_won", "score"])
    assert placing(rows) == [(1, 1), (2, 2), (3, 2), (4, 4), (5, 5)]


# --- table wins and opponents' score on their edge cases -----------------------------------
def test_table_wins():
    lines = [
        # round 1, table 1: 1 and 2 tie for the best series (+5 each): a win for each
        *exhausted_game(1, 1, 1, winners=[1, 2], paid={3: 5}),
        # round 1, table 2 seats 4 and 5 but has no confirmed game: nobody wins it
        # round 2, table 3: 4 wins two of three games, but 1 has the best series (+20)
        *rummikub_game(2, 3, 2, winner=1, charges={4: 30}),
        *rummikub_game(2, 3, 3, winner=4, charges={1: 5}),
        *rummikub_game(2, 3, 4, winner=4, charges={1: 5}),
        # round 2, table 4: 5 wins the only game
        *rummikub_game(2, 4, 5, winner=5, charges={2: 3, 3: 4}),
    ]
    rows = standings([1, 2, 3, 4, 5], lines, ["table_wins"])
    assert column(rows, "table_wins") == {1: 2, 2: 1, 3: 0, 4: 0, 5: 1}
    assert column(rows, "games_won") == {1: 2, 2: 1, 3: 0, 4: 2, 5: 1}


def test_table_wins_with_all_series_negative():
    # sanctions make the best series negative; it is still the best
    lines = rummikub_game(1, 1, 1, winner=1, charges={2: 5}, sanctions={1: 15})
    rows = standings([1, 2], lines, ["table_wins"])
    assert column(rows, "table_wins") == {1: 0, 2: 1}  # 1: 5-15 = -10, 2: -5


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        pytest.param(
            # a table of three where 1 and 3 never shared a game: they did not meet.
            # Scores: 1: -2, 2: 2+3 = 5, 3: -3
            [
                *rummikub_game(1, 1, 1, winner=2, charges={1: 2}),
                *rummikub_game(1, 1, 2, winner=2, charges={3: 3}),
            ],
            {1: 5, 2: -5, 3: 5},
            id="met-means-a-shared-game",
        ),
        pytest.param(
            # 1 and 2 meet in two rounds: counted twice. Scores: 1: 4+6 = 10, 2: -10
            [
                *rummikub_game(1, 1, 1, winner=1, charges={2: 4}),
                *rummikub_game(2, 2, 2, winner=1, charges={2: 6}),
            ],
            {1: -20, 2: 20, 3: 0},
            id="met-twice-counts-twice",
        ),
        pytest.param(
            # several games in one round: still once. Scores: 1: 4-1 = 3, 2: -3
            [
                *rummikub_game(1, 1, 1, winner=1, charges={2: 4}),
                *rummikub_game(1, 1, 2, winner=2, charges={1: 1}),
            ],
            {1: -3, 2: 3, 3: 0},
            id="several-games-one-round-once",
        ),
    ],
)
def test_opponents_score(lines, expected):
    rows = standings([1, 2, 3], lines, ["opponents_score"])
    assert column(rows, "opponents_score") == expected


# --- lot -----------------------------------------------------------------------------------
def test_lot_is_a_stable_hash_of_seed_and_player():
    expected = int.from_bytes(hashlib.sha256(b"club-open:11").digest()[:6], "big")
    assert lot_draw("club-open", 11) == expected
    # Pinned: the same on every machine and in every process (unlike hash()), and a change
    # of formula, which would redraw the lots of finished tournaments, cannot go unnoticed.
    assert lot_draw("club-open", 11) == 208_044_334_525_521
    assert 0 <= lot_draw("", 0) < 2**48


def test_lot_is_reproducible_and_ranks_highest_first():
    players = list(range(1, 21))
    first = standings(players, [], ["lot"], lot_seed="club-open")
    again = standings(players, [], ["lot"], lot_seed="club-open")
    assert first == again
    lots = [row.metrics["lot"] for row in first]
    assert lots == sorted(lots, reverse=True)
    assert [row.rank for row in first] == list(range(1, 21))


def test_a_carried_lot_replaces_the_draw_and_ranks_the_tie():
    """A player imported from an event file brings the lot the original site drew; the
    others still draw theirs from the seed."""
    players = [1, 2, 3]
    drawn = {p: lot_draw("club-open", p) for p in players}
    carried = {1: 5, 3: 2**48 - 1}
    rows = compute_standings(
        players=players, lines=[], penalties={}, ranking=["lot"], lot_seed="club-open",
        lots=carried,
    )  # fmt: skip
    lots = {row.player: row.metrics["lot"] for row in rows}
    assert lots == {1: 5, 2: drawn[2], 3: 2**48 - 1}
    assert [row.player for row in rows] == [3, 2, 1]


@given(st.dictionaries(st.integers(1, 8), st.integers(0, 2**48 - 1)))
def test_carried_lots_are_reported_exactly_and_ordered_by(carried):
    players = list(range(1, 9))
    for compute in (compute_standings_from_totals, compute_standings_from_series):
        source = {"totals": []} if compute is compute_standings_from_totals else {"series": []}
        rows = compute(
            players=players, penalties={}, ranking=["lot"], lot_seed="s", lots=carried, **source
        )
        lots = [row.metrics["lot"] for row in rows]
        assert lots == sorted(lots, reverse=True)
        assert all(
            row.metrics["lot"] == carried[row.player] for row in rows if row.player in carried
        )


def test_lot_depends_on_the_seed():
    players = list(range(1, 21))
    one = standings(players, [], ["lot"], lot_seed="club-open")
    other = standings(players, [], ["lot"], lot_seed="club-open-2")
    assert [row.player for row in one] != [row.player for row in other]
    assert column(one, "lot") != column(other, "lot")


# --- rows and inputs -----------------------------------------------------------------------
def test_metrics_reported_in_every_row():
    rows = standings(CLUB_PLAYERS, CLUB_LINES, ["games_won", "score"], CLUB_PENALTIES)
    only_in_ranking = {"head_to_head", *PER_GAME, "placement_points", "first_places"}
    only_in_ranking |= EXTRA_METRICS
    always = [key for key in METRICS if key not in only_in_ranking]
    assert all(list(row.metrics) == always for row in rows)

    ranking = ["score", "head_to_head", "score_per_game", "won_per_game", "placement_points"]
    rows = standings(CLUB_PLAYERS, CLUB_LINES, ranking)
    assert all(list(row.metrics) == [k for k in METRICS if k not in EXTRA_METRICS] for row in rows)


def test_players_without_games_share_the_first_rank():
    rows = standings([5, 3, 9], [], ["games_won", "score"])
    assert placing(rows) == [(3, 1), (5, 1), (9, 1)]
    assert standings([], [], ["score"]) == []


def test_lines_may_be_a_one_shot_iterator():
    expected = standings(CLUB_PLAYERS, CLUB_LINES, ["score", "head_to_head"])
    assert standings(CLUB_PLAYERS, iter(CLUB_LINES), ["score", "head_to_head"]) == expected


@pytest.mark.parametrize(
    ("players", "lines", "penalties", "message"),
    [
        ([1], rummikub_game(1, 1, 1, winner=1, charges={2: 5}), {}, "player 2 is not registered"),
        ([1, 2, 1], [], {}, "listed twice"),
        ([1, 2], [], {3: 1}, "player 3 is not registered"),
        (
            [1, 2],
            [*rummikub_game(1, 1, 1, 1, {2: 5}), GameLine(2, 1, 1, 1, -1, 1, False, False)],
            {},
            "two lines in game 1",
        ),
        (
            [1, 2, 3],
            [*rummikub_game(1, 1, 1, 1, {2: 5}), GameLine(3, 1, 2, 1, 0, 0, False, False)],
            {},
            "game 1 is at two tables",
        ),
        (
            [1, 2, 3],
            [*rummikub_game(1, 1, 1, 1, {2: 5}), *rummikub_game(2, 1, 2, 3, {1: 5})],
            {},
            "table 1 is in two rounds",
        ),
        (
            [1, 2, 3],
            [*rummikub_game(1, 1, 1, 1, {2: 5}), *rummikub_game(1, 2, 2, 3, {1: 5})],
            {},
            "two tables in round 1",
        ),
    ],
)
def test_inconsistent_input_is_a_programming_error(players, lines, penalties, message):
    with pytest.raises(ValueError, match=message):
        standings(players, lines, ["score"], penalties)


# --- the metric registry and ranking validation --------------------------------------------
def test_metrics_registry_follows_the_rules_table():
    assert list(METRICS) == [
        "score",
        "games_won",
        "games_played",
        "rummikubs",
        "rack_total",
        "table_wins",
        "opponents_score",
        "head_to_head",
        "best_game",
        "penalties",
        "lot",
        "score_per_game",
        "won_per_game",
        "placement_points",
        "first_places",
        "second_best_game",
        "third_best_game",
        "matches_won",
        "match_points",
    ]
    lower = {key for key, metric in METRICS.items() if metric.direction == "lower"}
    assert lower == {"rack_total", "penalties"}
    assert METRICS["games_played"].direction is None
    assert all(metric.key == key and metric.name and metric.abbr for key, metric in METRICS.items())


def test_validate_ranking_accepts_every_rankable_metric_once():
    assert validate_ranking(["games_won", "score"]) == ("games_won", "score")
    assert validate_ranking(RANKABLE) == tuple(RANKABLE)


@pytest.mark.parametrize(
    ("ranking", "message"),
    [
        (["score", "wins"], "unknown ranking metric 'wins'"),
        (["score", "games_won", "score"], "'score' appears twice"),
        ([], "at least one metric"),
        (["games_played"], "'games_played' is informational and cannot rank"),
        ("score", "must be a list of metric keys, not str"),
        (None, "must be a list of metric keys, not null"),
        ({"score": "higher"}, "must be a list of metric keys, not dict"),
        (["score", 3], "item 2 must be a metric key (a string), not int"),
        ([["score"]], "item 1 must be a metric key (a string), not list"),
    ],
)
def test_validate_ranking_rejects(ranking, message):
    with pytest.raises(RuleError) as caught:
        validate_ranking(ranking)
    assert message in caught.value.message
    assert caught.value.path == ("ranking",)


def test_validate_ranking_names_the_given_field():
    with pytest.raises(RuleError) as caught:
        validate_ranking(["nope"], field=("tournament", "ranking"))
    assert caught.value.path == ("tournament", "ranking")


def test_compute_standings_validates_the_ranking():
    with pytest.raises(RuleError, match="appears twice"):
        standings([1], [], ["lot", "lot"])


# --- properties ----------------------------------------------------------------------------
@st.composite
def tournaments(draw):
    """Random small tournaments: scores are arbitrary (standings do not check the game
    rules), small enough to produce ties; sometimes a game has only some of a table."""
    players = draw(st.lists(st.integers(1, 500), min_size=2, max_size=8, unique=True))
    lines: list[GameLine] = []
    table = game = 0
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(players))
        start = 0
        while len(order) - start >= 2:
            size = draw(st.integers(2, min(4, len(order) - start)))
            seated, start, table = order[start : start + size], start + size, table + 1
            for _ in range(draw(st.integers(0, 3))):
                game += 1
                everyone = draw(st.booleans()) or draw(st.booleans())
                members = seated if everyone else draw(st.sets(st.sampled_from(seated), min_size=1))
                for player in members:
                    winner = draw(st.booleans())
                    lines.append(
                        GameLine(
                            player,
                            rnd,
                            table,
                            game,
                            draw(st.integers(-6, 6)),
                            0 if winner else draw(st.integers(0, 6)),
                            winner,
                            winner and draw(st.booleans()),
                        )
                    )
    penalties = draw(st.dictionaries(st.sampled_from(players), st.integers(0, 2)))
    metrics = draw(st.permutations(RANKABLE))
    ranking = metrics[: draw(st.integers(1, 4))]
    seats = {line.game: 0 for line in lines}
    for line in lines:
        seats[line.game] += 1
    if 1 in seats.values():  # a game of one has no finishing order: no placement metrics
        ranking = [key for key in ranking if key not in PLACEMENT_METRICS] or ["score"]
    return players, lines, penalties, ranking


def sort_key(row: StandingRow, ranking) -> tuple[int, ...]:
    """Smaller is better."""
    return tuple(
        -row.metrics[k] if METRICS[k].direction == "higher" else row.metrics[k] for k in ranking
    )


@settings(deadline=None)
@given(tournaments())
def test_rank_is_one_plus_the_number_strictly_better(tournament):
    players, lines, penalties, ranking = tournament
    rows = standings(players, lines, ranking, penalties)
    assert sorted(row.player for row in rows) == sorted(players)
    keys = [sort_key(row, ranking) for row in rows]
    for row, key in zip(rows, keys, strict=True):
        assert row.rank == 1 + sum(other < key for other in keys)
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    for before, after in itertools.pairwise(rows):
        if before.rank == after.rank:
            assert before.player < after.player


@settings(deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_line_order_does_not_matter(tournament, rng: random.Random):
    players, lines, penalties, ranking = tournament
    shuffled = list(lines)
    rng.shuffle(shuffled)
    assert standings(players, shuffled, ranking, penalties) == standings(
        players, lines, ranking, penalties
    )


def reference_metrics(players, lines, penalties, ranking, lot_seed):
    """docs/rules/standings.md restated naively, one player at a time, scanning every line."""
    metrics: dict[int, dict[str, int]] = {}
    for p in players:
        mine = [line for line in lines if line.player == p]
        metrics[p] = {
            "score": sum(line.score for line in mine),
            "games_won": sum(1 for line in mine if line.winner),
            "games_played": len(mine),
            "rummikubs": sum(1 for line in mine if line.winner and line.rummikub),
            "rack_total": sum(line.charge for line in mine if not line.winner),
            "best_game": max((line.score for line in mine), default=0),
            "penalties": penalties.get(p, 0),
            "lot": int.from_bytes(hashlib.sha256(f"{lot_seed}:{p}".encode()).digest()[:6], "big"),
        }
    for p in players:
        mine = [line for line in lines if line.player == p]
        table_wins = opponents = 0
        for rnd in {line.round for line in mine}:
            (table,) = {line.table for line in mine if line.round == rnd}
            series: dict[int, int] = {}
            for line in lines:
                if line.table == table:
                    series[line.player] = series.get(line.player, 0) + line.score
            table_wins += series[p] == max(series.values())
            my_games = {line.game for line in mine if line.round == rnd}
            met = {line.player for line in lines if line.game in my_games} - {p}
            opponents += sum(metrics[o]["score"] for o in met)
        metrics[p]["table_wins"] = table_wins
        metrics[p]["opponents_score"] = opponents
    if needs_placement(ranking):
        for p in players:
            points = firsts = 0
            for line in (line for line in lines if line.player == p):
                game = [o for o in lines if o.game == line.game]
                winners = [o for o in game if o.winner]
                if line.winner:
                    place = 1
                else:
                    place = 1 + len(winners)
                    place += sum(not o.winner and o.score > line.score for o in game)
                points += DEFAULT_PLACEMENT_POINTS[len(game)][place - 1]
                firsts += line.winner and len(winners) == 1
            metrics[p]["placement_points"] = points
            metrics[p]["first_places"] = firsts
    for average, total in (("score_per_game", "score"), ("won_per_game", "games_won")):
        if average in ranking:
            for p in players:
                played = metrics[p]["games_played"]
                exact = Decimal(metrics[p][total]) / Decimal(played) if played else Decimal(0)
                metrics[p][average] = float(exact.quantize(Decimal("0.01"), ROUND_HALF_UP))
    if "head_to_head" in ranking:
        before = ranking[: ranking.index("head_to_head")]
        for p in players:
            group = {q for q in players if all(metrics[q][k] == metrics[p][k] for k in before)}
            metrics[p]["head_to_head"] = sum(
                line.score
                for line in lines
                if line.player == p
                and any(o.game == line.game and o.player in group - {p} for o in lines)
            )
    return metrics


@settings(deadline=None)
@given(tournaments())
def test_metrics_match_the_naive_definitions(tournament):
    players, lines, penalties, ranking = tournament
    rows = standings(players, lines, ranking, penalties, lot_seed="prop")
    assert {row.player: row.metrics for row in rows} == reference_metrics(
        players, lines, penalties, ranking, "prop"
    )


# --- series lines: what the database sends ---------------------------------------------------
def series_standings(players, series, ranking, penalties=None, lot_seed="club-open", lines=()):
    """From series lines; the placement metrics, which series lines cannot give, from the
    game ``lines`` they were folded from (as the recompute reads them separately)."""
    placed = placement_totals(finishes(lines)) if needs_placement(ranking) else None
    return compute_standings_from_series(
        players=players,
        series=series,
        penalties=penalties or {},
        ranking=ranking,
        lot_seed=lot_seed,
        placed=placed,
    )


def naive_series(lines: list[GameLine]) -> list[SeriesLine]:
    """One series line per player and table, summed the obvious way (one part per table)."""
    result = []
    for table, player in sorted({(line.table, line.player) for line in lines}):
        mine = [line for line in lines if line.table == table and line.player == player]
        result.append(
            SeriesLine(
                player=player,
                round=mine[0].round,
                table=table,
                games=len(mine),
                won=sum(line.winner for line in mine),
                rummikubs=sum(line.winner and line.rummikub for line in mine),
                score=sum(line.score for line in mine),
                charge=sum(line.charge for line in mine if not line.winner),
                best_game=max(line.score for line in mine),
            )
        )
    return result


def by_table_and_player(series: list[SeriesLine]) -> list[SeriesLine]:
    return sorted(series, key=lambda line: (line.table, line.part, line.player))


def test_club_from_series_lines():
    series = naive_series(CLUB_LINES)
    assert len(series) == 12  # four tables of three; 7 has no line
    assert by_table_and_player(fold_games(CLUB_LINES)) == series
    for ranking in (["games_won", "score"], ["games_won", "head_to_head", "score"], RANKABLE):
        assert series_standings(
            CLUB_PLAYERS, series, ranking, CLUB_PENALTIES, lines=CLUB_LINES
        ) == standings(CLUB_PLAYERS, CLUB_LINES, ranking, CLUB_PENALTIES)


def test_folding_games_with_a_player_left_out_makes_parts():
    # a table of three where 1 and 3 never shared a game: two parts, 2 in both
    lines = [
        *rummikub_game(1, 1, 1, winner=2, charges={1: 2}),
        *rummikub_game(1, 1, 2, winner=2, charges={3: 3}),
        *rummikub_game(1, 1, 3, winner=1, charges={2: 4}),
    ]
    assert by_table_and_player(fold_games(lines)) == [
        SeriesLine(1, 1, 1, games=2, won=1, rummikubs=1, score=2, charge=2, best_game=4, part=0),
        SeriesLine(2, 1, 1, games=2, won=1, rummikubs=1, score=-2, charge=4, best_game=2, part=0),
        SeriesLine(2, 1, 1, games=1, won=1, rummikubs=1, score=3, charge=0, best_game=3, part=1),
        SeriesLine(3, 1, 1, games=1, won=0, rummikubs=0, score=-3, charge=3, best_game=-3, part=1),
    ]


@pytest.mark.parametrize(
    ("series", "message"),
    [
        ([SeriesLine(9, 1, 1, 1, 1, 1, 5, 0, 5)], "series: player 9 is not registered"),
        ([SeriesLine(1, 1, 1, 0, 0, 0, 0, 0, 0)], "a line of player 1 has no game"),
        (
            [SeriesLine(1, 1, 1, 1, 1, 1, 5, 0, 5), SeriesLine(1, 1, 1, 1, 0, 0, -5, 5, -5)],
            "two lines in one part of table 1",
        ),
        (
            [SeriesLine(1, 1, 1, 1, 1, 1, 5, 0, 5), SeriesLine(2, 2, 1, 1, 0, 0, -5, 5, -5)],
            "table 1 is in two rounds",
        ),
        (
            [SeriesLine(1, 1, 1, 1, 1, 1, 5, 0, 5), SeriesLine(1, 1, 2, 1, 0, 0, -5, 5, -5)],
            "two tables in round 1",
        ),
    ],
)
def test_inconsistent_series_are_a_programming_error(series, message):
    with pytest.raises(ValueError, match=message):
        series_standings([1, 2], series, ["score"])


@st.composite
def full_table_tournaments(draw):
    """Random small tournaments as the results service stores them: everyone seated at a
    table has a line in every game there (some tables have no confirmed game)."""
    players = draw(st.lists(st.integers(1, 500), min_size=2, max_size=10, unique=True))
    lines: list[GameLine] = []
    table = game = 0
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(players))
        start = 0
        while len(order) - start >= 2:
            size = draw(st.integers(2, min(4, len(order) - start)))
            seated, start, table = order[start : start + size], start + size, table + 1
            for _ in range(draw(st.integers(0, 4))):
                game += 1
                for player in seated:
                    winner = draw(st.booleans())
                    lines.append(
                        GameLine(
                            player,
                            rnd,
                            table,
                            game,
                            draw(st.integers(-6, 6)),
                            0 if winner else draw(st.integers(0, 6)),
                            winner,
                            winner and draw(st.booleans()),
                        )
                    )
    penalties = draw(st.dictionaries(st.sampled_from(players), st.integers(0, 2)))
    metrics = draw(st.permutations(RANKABLE))
    ranking = metrics[: draw(st.integers(1, 4))]
    return players, lines, penalties, ranking


@settings(deadline=None)
@given(full_table_tournaments(), st.randoms(use_true_random=False))
def test_series_lines_rank_exactly_like_game_lines(tournament, rng: random.Random):
    players, lines, penalties, ranking = tournament
    series = naive_series(lines)
    assert by_table_and_player(fold_games(lines)) == series
    rng.shuffle(series)
    assert series_standings(players, series, ranking, penalties, "prop", lines) == standings(
        players, lines, ranking, penalties, "prop"
    )


def totals_of(series: list[SeriesLine]) -> list[PlayerTotals]:
    """Sum series lines per player: what the recompute's per-player query returns."""
    sums: dict[int, PlayerTotals] = {}
    for line in series:
        total = sums.setdefault(line.player, PlayerTotals(line.player, 0, 0, 0, 0, 0, None))
        total.games += line.games
        total.won += line.won
        total.rummikubs += line.rummikubs
        total.score += line.score
        total.charge += line.charge
        best = total.best_game
        total.best_game = line.best_game if best is None else max(best, line.best_game)
    return list(sums.values())


@settings(deadline=None)
@given(full_table_tournaments())
def test_per_player_totals_rank_like_game_lines_without_series_metrics(tournament):
    players, lines, penalties, ranking = tournament
    ranking = [key for key in ranking if key not in SERIES_METRICS] or ["score"]
    expected = compute_standings(
        players=players, lines=lines, penalties=penalties, ranking=ranking, lot_seed="prop"
    )
    got = compute_standings_from_totals(
        players=players,
        totals=totals_of(fold_games(lines)),
        penalties=penalties,
        ranking=ranking,
        lot_seed="prop",
        placed=placement_totals(finishes(lines)) if needs_placement(ranking) else None,
    )
    assert [(row.rank, row.player) for row in got] == [(row.rank, row.player) for row in expected]
    for mine, theirs in zip(got, expected, strict=True):
        assert mine.metrics == {
            key: value for key, value in theirs.metrics.items() if key not in SERIES_METRICS
        }


def series_sums(lines: list[GameLine], totals: list[PlayerTotals]) -> list[PlayerTotals]:
    """``totals`` with table wins and opponents' score summed per player, worked out from
    the game lines as the recompute's SQL does: per table, each player's series score; a
    win for each at the table's highest; the others' whole scores added once per table."""
    series: dict[int, dict[int, int]] = {}  # table -> player -> series score
    for line in lines:
        at = series.setdefault(line.table, {})
        at[line.player] = at.get(line.player, 0) + line.score
    score = {total.player: total.score for total in totals}
    wins = dict.fromkeys(score, 0)
    opponents = dict.fromkeys(score, 0)
    for at in series.values():
        top = max(at.values())
        for player, own in at.items():
            wins[player] += own == top
            opponents[player] += sum(score[other] for other in at if other != player)
    return [
        replace(t, table_wins=wins[t.player], opponents_score=opponents[t.player]) for t in totals
    ]


@settings(deadline=None)
@given(full_table_tournaments())
def test_per_player_series_sums_rank_like_game_lines_without_head_to_head(tournament):
    players, lines, penalties, ranking = tournament
    ranking = [key for key in ranking if key != "head_to_head"] + ["table_wins"]
    ranking = list(dict.fromkeys(ranking))
    expected = compute_standings(
        players=players, lines=lines, penalties=penalties, ranking=ranking, lot_seed="prop"
    )
    got = compute_standings_from_totals(
        players=players,
        totals=series_sums(lines, totals_of(fold_games(lines))),
        penalties=penalties,
        ranking=ranking,
        lot_seed="prop",
        placed=placement_totals(finishes(lines)) if needs_placement(ranking) else None,
        series_summed=True,
    )
    assert [(row.rank, row.player, row.metrics) for row in got] == [
        (row.rank, row.player, row.metrics) for row in expected
    ]


def test_per_player_series_sums_refuse_head_to_head_and_missing_sums():
    with pytest.raises(ValueError, match="needs series lines"):
        compute_standings_from_totals(
            players=[1], totals=[], penalties={}, ranking=["head_to_head"], lot_seed="x",
            series_summed=True,
        )  # fmt: skip
    with pytest.raises(ValueError, match="no series sums"):
        compute_standings_from_totals(
            players=[1], totals=[PlayerTotals(1, 1, 1, 0, 5, 0, 5)], penalties={},
            ranking=["table_wins"], lot_seed="x", series_summed=True,
        )  # fmt: skip


@pytest.mark.parametrize("key", sorted(SERIES_METRICS))
def test_per_player_totals_refuse_a_series_metric(key):
    with pytest.raises(ValueError, match="needs series lines"):
        compute_standings_from_totals(
            players=[1, 2], totals=[], penalties={}, ranking=[key], lot_seed="x"
        )


def test_per_player_totals_refuse_an_unregistered_player():
    with pytest.raises(ValueError, match="not registered"):
        compute_standings_from_totals(
            players=[1],
            totals=[PlayerTotals(9, 1, 1, 0, 5, 0, 5)],
            penalties={},
            ranking=["score"],
            lot_seed="x",
        )


# --- withdrawn players: after the active ones, ranked on from there ------------------------


@pytest.mark.parametrize(
    ("ranking", "withdrawn", "expected"),
    [
        # TIED scores: 3 15, 1 0, 2 0, 4 -15. Nobody withdrawn: as always.
        (["score"], set(), [(3, 1), (1, 2), (2, 2), (4, 4)]),
        # 3 (the leader) withdrew: 1, 2 and 4 ranked 1..3 without them, 3 after as 4th.
        (["score"], {3}, [(1, 1), (2, 1), (4, 3), (3, 4)]),
        # 1 withdrew: 2 no longer shares a rank with 1.
        (["score"], {1}, [(3, 1), (2, 2), (4, 3), (1, 4)]),
        # Two withdrawn: ranked among themselves (3 above 4), continuing from 3.
        (["score"], {3, 4}, [(1, 1), (2, 1), (3, 3), (4, 4)]),
        # Equal withdrawn players share their rank, too.
        (["score"], {1, 2}, [(3, 1), (4, 2), (1, 3), (2, 3)]),
        # Everyone withdrawn: the usual ranking.
        (["score"], {1, 2, 3, 4}, [(3, 1), (1, 2), (2, 2), (4, 4)]),
        # head_to_head: 1 beat 2 when they met, but 1 withdrew — no tied group across.
        (["score", "head_to_head"], {1}, [(3, 1), (2, 2), (4, 3), (1, 4)]),
    ],
)
def test_withdrawn_players_come_after_the_active_ones(ranking, withdrawn, expected):
    rows = compute_standings(
        players=[1, 2, 3, 4],
        lines=TIED_LINES,
        penalties={},
        ranking=ranking,
        lot_seed="club-open",
        withdrawn=withdrawn,
    )
    assert placing(rows) == expected


def test_withdrawn_head_to_head_counts_only_games_with_their_own_group():
    # 1 and 2 tie on score; with 1 withdrawn, neither has a tied partner of their standing.
    rows = compute_standings(
        players=[1, 2, 3, 4],
        lines=TIED_LINES,
        penalties={},
        ranking=["score", "head_to_head"],
        lot_seed="club-open",
        withdrawn={1},
    )
    assert column(rows, "head_to_head") == {1: 0, 2: 0, 3: 0, 4: 0}


@settings(max_examples=60, deadline=None)
@given(
    withdrawn=st.sets(st.integers(1, 7)),
    ranking=st.sampled_from([["score"], ["games_won", "score"], ["penalties", "lot"]]),
)
def test_withdrawn_never_outrank_active_and_active_ranks_are_unchanged(withdrawn, ranking):
    rows = compute_standings(
        players=CLUB_PLAYERS,
        lines=CLUB_LINES,
        penalties=CLUB_PENALTIES,
        ranking=ranking,
        lot_seed="club-open",
        withdrawn=withdrawn,
    )
    active = [row for row in rows if row.player not in withdrawn]
    assert rows[: len(active)] == active  # the active ones first
    assert all(row.rank > len(active) for row in rows[len(active) :])
    # The active players' ranks are those of a tournament without the withdrawn ones.
    alone = standings(
        [p for p in CLUB_PLAYERS if p not in withdrawn],
        [line for line in CLUB_LINES if line.player not in withdrawn],
        ranking,
        {p: n for p, n in CLUB_PENALTIES.items() if p not in withdrawn},
    )
    assert [(r.player, r.rank) for r in active] == placing(alone)
    # The same from series lines.
    again = compute_standings_from_series(
        players=CLUB_PLAYERS,
        series=fold_games(CLUB_LINES),
        penalties=CLUB_PENALTIES,
        ranking=ranking,
        lot_seed="club-open",
        withdrawn=withdrawn,
    )
    assert placing(again) == placing(rows)


# --- per-game averages (uneven tables) ----------------------------------------------------
@pytest.mark.parametrize(
    ("total", "games", "expected"),
    [
        (37, 3, 12.33),
        (38, 3, 12.67),
        (-37, 3, -12.33),
        (-37, 8, -4.63),  # -4.625: halves away from zero
        (37, 8, 4.63),
        (1, 200, 0.01),  # 0.005
        (-1, 1000, 0.0),  # -0.001 rounds to 0, never -0.0
        (2, 3, 0.67),
        (0, 4, 0.0),
        (5, 0, 0.0),  # no game played
        (120, 4, 30.0),
    ],
)
def test_per_game_rounds_to_hundredths_half_away_from_zero(total, games, expected):
    value = per_game(total, games)
    assert value == expected
    assert str(value) != "-0.0"


def test_per_game_averages_even_out_a_table_of_three():
    """A won 2 of 3 games at a table of 3 for +60; B won 2 of 4 at a table of 4 for +70.
    By totals B leads on score and they tie on games won; per game, A leads both."""
    lines = [
        GameLine(1, 1, 10, 100, 30, 0, True, True),
        GameLine(1, 1, 10, 101, 40, 0, True, True),
        GameLine(1, 1, 10, 102, -10, 10, False, False),
        GameLine(2, 1, 20, 200, 50, 0, True, True),
        GameLine(2, 1, 20, 201, 40, 0, True, True),
        GameLine(2, 1, 20, 202, -10, 10, False, False),
        GameLine(2, 1, 20, 203, -10, 10, False, False),
    ]
    by_totals = standings([1, 2], lines, ["games_won", "score"])
    assert placing(by_totals) == [(2, 1), (1, 2)]
    per_game_rows = standings([1, 2], lines, ["won_per_game", "score_per_game"])
    assert placing(per_game_rows) == [(1, 1), (2, 2)]
    assert column(per_game_rows, "won_per_game") == {1: 0.67, 2: 0.5}
    assert column(per_game_rows, "score_per_game") == {1: 20.0, 2: 17.5}


def test_equal_rounded_averages_tie_and_the_next_metric_decides():
    # 1/3 and 33/100 both show 0.33 won per game: equal, so the score decides.
    lines = [GameLine(1, 1, 10, 100 + g, 5, 0, g == 0, False) for g in range(3)]
    lines += [GameLine(2, 1, 20, 200 + g, 1, 0, g < 33, False) for g in range(100)]
    rows = standings([1, 2], lines, ["won_per_game", "score"])
    assert column(rows, "won_per_game") == {1: 0.33, 2: 0.33}
    assert placing(rows) == [(2, 1), (1, 2)]  # 100 > 15
    assert placing(standings([1, 2], lines, ["won_per_game"])) == [(1, 1), (2, 1)]


@given(st.integers(-10_000, 10_000), st.integers(1, 500))
def test_per_game_is_the_exact_quotient_rounded(total, games):
    exact = Decimal(total) / Decimal(games)
    assert per_game(total, games) == float(exact.quantize(Decimal("0.01"), ROUND_HALF_UP))
    assert abs(Decimal(str(per_game(total, games))) - exact) <= Decimal("0.005")


def test_per_player_totals_report_per_game_averages_like_game_lines():
    ranking = ["score_per_game", "won_per_game", "score"]
    from_lines = standings(CLUB_PLAYERS, CLUB_LINES, ranking)
    totals = [
        PlayerTotals(p, games=len(mine), won=sum(x.winner for x in mine),
                     rummikubs=sum(x.winner and x.rummikub for x in mine),
                     score=sum(x.score for x in mine),
                     charge=sum(x.charge for x in mine if not x.winner),
                     best_game=max((x.score for x in mine), default=0))
        for p in CLUB_PLAYERS
        for mine in [[x for x in CLUB_LINES if x.player == p]]
    ]  # fmt: skip
    from_totals = compute_standings_from_totals(
        players=CLUB_PLAYERS, totals=totals, penalties={}, ranking=ranking, lot_seed="club-open"
    )
    assert [(r.rank, r.player, r.metrics) for r in from_totals] == [
        (r.rank, r.player, {k: v for k, v in r.metrics.items() if k not in SERIES_METRICS})
        for r in from_lines
    ]
    assert {"score_per_game", "won_per_game"} <= set(from_totals[0].metrics)
