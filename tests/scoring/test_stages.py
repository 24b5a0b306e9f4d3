"""Tests of scoring.stages: cuts with ties, carry-over, placement points, race to N."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.stages import (
    DEFAULT_PLACEMENT_POINTS,
    RaceGame,
    Ranked,
    carry_over,
    check_placement_points,
    cut,
    first_place,
    placement_points,
    places,
    race,
    race_order,
)
from scoring.standings import lot_draw


def field_of(ranks: list[int], scores: list[int] | None = None) -> list[Ranked]:
    scores = scores or [100 - r for r in ranks]
    pairs = zip(ranks, scores, strict=True)
    return [Ranked(player=i + 1, rank=r, score=s) for i, (r, s) in enumerate(pairs)]


# --- cut -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "top", "entrants", "tied"),
    [
        ([1, 2, 3, 4, 5], 2, (1, 2), None),
        ([1, 2, 3, 4, 5], 5, (1, 2, 3, 4, 5), None),
        ([1, 2, 2, 4, 5], 3, (1, 2, 3), None),  # the tie is above the line
        ([1, 2, 3, 3, 5], 4, (1, 2, 3, 4), None),  # the tie ends exactly at the line
        ([1, 2, 3, 3, 3, 6], 4, (1, 2, 3, 4, 5), (3, 4, 5)),  # 3 tied for 2 places
        ([1, 1, 1, 1], 1, (1, 2, 3, 4), (1, 2, 3, 4)),
    ],
)
def test_cut_top_including_ties(ranks, top, entrants, tied):
    result = cut(field_of(ranks), top=top, ties="include")
    assert result.entrants == entrants
    assert set(result.entrants) | set(result.eliminated) == set(range(1, len(ranks) + 1))
    assert (result.tie.players if result.tie else None) == tied


def test_cut_tie_by_lot_fills_the_places_by_highest_lot_and_says_so():
    ranked = field_of([1, 2, 3, 3, 3, 6])
    result = cut(ranked, top=4, ties="lot", lot_seed="open-2026")
    by_lot = sorted([3, 4, 5], key=lambda p: -lot_draw("open-2026", p))
    assert result.entrants == tuple(sorted([1, 2, by_lot[0], by_lot[1]]))
    assert len(result.entrants) == 4
    assert result.tie.places == 2 and result.tie.resolution == "lot"
    assert result.tie.sentence() == "3 players share rank 3 for 2 places: decided by lot"


def test_cut_by_minimum_score():
    ranked = field_of([1, 2, 3, 4], scores=[40, 12, 12, -3])
    assert cut(ranked, min_score=12).entrants == (1, 2, 3)
    assert cut(ranked, min_score=41).entrants == ()


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"top": 6}, ("top",), "a cut of 6 from a field of 5 players"),
        ({"top": 0}, ("top",), "at least 1"),
        ({}, ("cut",), "either"),
        ({"top": 2, "min_score": 3}, ("cut",), "either"),
        ({"top": 2, "ties": "coin"}, ("ties",), "'coin'"),
    ],
)
def test_cut_refuses_bad_input(kwargs, field, words):
    with pytest.raises(RuleError) as caught:
        cut(field_of([1, 2, 3, 4, 5]), **kwargs)
    assert caught.value.path == field
    assert words in caught.value.message


@given(
    st.lists(st.integers(-50, 50), min_size=1, max_size=30),
    st.data(),
    st.sampled_from(["include", "lot"]),
)
def test_cut_property(scores, data, ties):
    """Ranks from scores (competition ranking): the cut keeps the order, never separates
    two players of different ranks the wrong way round, and takes exactly `top` by lot."""
    ordered = sorted(scores, reverse=True)
    ranked = [Ranked(i + 1, ordered.index(s) + 1, s) for i, s in enumerate(ordered)]
    top = data.draw(st.integers(1, len(ranked)))
    result = cut(ranked, top=top, ties=ties, lot_seed="p")
    rank_of = {r.player: r.rank for r in ranked}
    worst_in = max(rank_of[p] for p in result.entrants)
    assert all(rank_of[p] >= worst_in for p in result.eliminated)
    if ties == "lot":
        assert len(result.entrants) == top
    else:
        assert len(result.entrants) >= top
    if result.tie is None:
        assert len(result.entrants) == top
    assert list(result.entrants) == sorted(result.entrants)


# --- carry-over ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "mode", "carried"),
    [
        (57, "all", 57),
        (57, "none", 0),
        (-12, "none", 0),
        (8, "half", 4),
        (7, "half", 3),
        (-7, "half", -3),
        (-1, "half", 0),
        (0, "half", 0),
    ],
)
def test_carry_over(value, mode, carried):
    assert carry_over(value, mode) == carried


def test_carry_over_refuses_an_unknown_mode():
    with pytest.raises(RuleError) as caught:
        carry_over(5, "double")
    assert caught.value.path == ("carry_over",)


@given(st.integers(-(10**12), 10**12))
def test_half_is_symmetric_and_at_most_half(value):
    half = carry_over(value, "half")
    assert half == -carry_over(-value, "half")
    assert abs(half) * 2 <= abs(value) < abs(half) * 2 + 2


# --- placement points ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "points", "first"),
    [
        ({1: 18, 2: -5, 3: -10, 4: -3}, {1: 4, 4: 3, 2: 1, 3: 0}, 1),
        ({1: 18, 2: -9, 3: -9, 4: 0}, {1: 4, 4: 3, 2: 1, 3: 1}, 1),  # tied for third
        ({1: 30, 2: -15, 3: -15, 4: 0}, {1: 4, 4: 3, 2: 1, 3: 1}, 1),
        ({1: 8, 2: 8, 3: 8, 4: -8}, {1: 4, 2: 4, 3: 4, 4: 0}, None),  # rules/scoring.md ex. 3
        ({1: 53, 2: -16, 3: -37}, {1: 4, 2: 2, 3: 0}, 1),  # rules/scoring.md ex. 1
        ({1: 20, 2: -20}, {1: 4, 2: 0}, 1),
        ({1: 0, 2: 0}, {1: 4, 2: 4}, None),
    ],
)
def test_placement_points_by_table_size_with_ties(scores, points, first):
    assert placement_points(scores) == points
    assert first_place(scores) == first


def test_a_club_table_of_points():
    table = check_placement_points({4: [5, 3, 2, 0]})
    assert table[4] == (5, 3, 2, 0) and table[3] == DEFAULT_PLACEMENT_POINTS[3]
    assert placement_points({1: 9, 2: 1, 3: -4, 4: -6}, table) == {1: 5, 2: 3, 3: 2, 4: 0}


@pytest.mark.parametrize(
    ("table", "path", "words"),
    [
        ({5: [1, 1, 1, 1, 1]}, ("placement_points", "5"), "2 to 4"),
        ({4: [4, 3, 1]}, ("placement_points", "4"), "needs 4 places, not 3"),
        ({3: [4, 2, 3]}, ("placement_points", "3"), "fewer points"),
        ({2: [4, "0"]}, ("placement_points", "2"), "whole number"),
    ],
)
def test_bad_placement_tables(table, path, words):
    with pytest.raises(RuleError) as caught:
        check_placement_points(table)
    assert caught.value.path == path and words in caught.value.message


@given(st.lists(st.integers(-200, 200), min_size=2, max_size=4))
def test_placement_properties(score_list):
    scores = dict(enumerate(score_list, start=1))
    points = placement_points(scores)
    placed = places(scores)
    for a in scores:
        for b in scores:
            if scores[a] > scores[b]:
                assert placed[a] < placed[b] and points[a] >= points[b]
            if scores[a] == scores[b]:
                assert points[a] == points[b]
    assert min(placed.values()) == 1


# --- race to N -----------------------------------------------------------------------


def won(winner, *others, score=10):
    scores = {winner: score, **{p: -score // max(1, len(others)) for p in others}}
    return RaceGame(frozenset({winner}), scores)


def test_race_to_four_is_won_by_the_first_to_four():
    games = [won(1, 2, 3, 4), won(2, 1, 3, 4), won(1, 2, 3, 4), won(1, 2, 3, 4)]
    assert race([1, 2, 3, 4], games, target=4, cap=12).status == "running"
    state = race([1, 2, 3, 4], [*games, won(1, 2, 3, 4)], target=4, cap=12)
    assert (state.status, state.champion, state.games, state.wins[1]) == ("won", 1, 5, 4)


def test_no_game_counts_after_the_final_is_won():
    # A correction of game 2 made player 1 the winner at game 2: game 3 is surplus.
    games = [won(1, 2), won(1, 2), won(2, 1)]
    state = race([1, 2], games, target=2, cap=5)
    assert (state.status, state.champion, state.games, state.surplus) == ("won", 1, 2, 1)
    assert state.wins == {1: 2, 2: 0}


def test_the_cap_goes_to_most_wins_then_score_then_the_last_game_won_alone():
    # 3 games cap, target 3: 1 and 2 win one each, 3 one: three-way tie on wins; the
    # scores decide (player 2 won the biggest game).
    games = [won(1, 2, 3, score=5), won(2, 1, 3, score=40), won(3, 1, 2, score=6)]
    state = race([1, 2, 3], games, target=3, cap=3)
    assert (state.status, state.champion, state.decider) == ("decided", 2, "score")


def test_equal_wins_and_scores_go_to_the_last_game_won_alone():
    games = [won(1, 2, score=10), won(2, 1, score=10)]
    state = race([1, 2], games, target=2, cap=2)
    assert (state.status, state.champion, state.decider) == ("decided", 2, "last_game")


def test_two_reaching_the_target_together_in_a_shared_win():
    shared = RaceGame(frozenset({1, 2}), {1: 4, 2: 4, 3: -8})
    games = [won(1, 2, 3, score=10), won(2, 1, 3, score=10), shared]
    state = race([1, 2, 3], games, target=2, cap=9)
    assert (state.status, state.champion) == ("decided", 2)  # game 2 was 2's alone, later


def test_a_tie_the_decider_cannot_break_is_said():
    shared = RaceGame(frozenset({1, 2}), {1: 4, 2: 4, 3: -8})
    state = race([1, 2, 3], [shared], target=1, cap=3)
    assert (state.status, state.champion, state.tied) == ("tied", None, (1, 2))
    assert "one more game" in state.sentence(1)


@pytest.mark.parametrize(("target", "cap", "field"), [(0, 5, ("target",)), (4, 3, ("cap",))])
def test_race_refuses_bad_settings(target, cap, field):
    with pytest.raises(RuleError) as caught:
        race([1, 2], [], target=target, cap=cap)
    assert caught.value.path == field


@given(st.lists(st.sampled_from([1, 2, 3, 4]), max_size=30), st.integers(1, 5))
def test_race_properties(winners, target):
    """Played game by game, the race ends exactly once, at the first game where someone
    has `target` wins or the cap; before that it is running."""
    cap = target * 3
    games: list[RaceGame] = []
    for w in winners:
        games.append(RaceGame(frozenset({w}), {p: (9 if p == w else -3) for p in (1, 2, 3, 4)}))
        state = race([1, 2, 3, 4], games, target=target, cap=cap)
        if state.status != "running":
            assert state.champion is not None
            assert state.wins[state.champion] == max(state.wins.values())
            assert max(state.wins.values()) >= target or state.games == cap
            break
        assert max(state.wins.values()) < target and len(games) < cap


# Race to N, table-driven: (winners of each game, target, cap) -> status, champion, games.
RACES = [
    # decided exactly at N: the fourth win of player 1 in game 4
    ([1, 1, 1, 1], 4, 9, "won", 1, 4),
    ([1, 2, 1, 2, 1, 2, 1], 4, 9, "won", 1, 7),
    ([1, 2, 1, 2, 1, 2], 4, 9, "running", None, 6),
    # the cap reached: most wins decides
    ([1, 2, 1, 3], 3, 4, "decided", 1, 4),
    # the cap reached with a tie in wins: the score sum (all equal here), then the last
    # game won alone among the tied: player 2's game 2 (player 1 won game 1)
    ([1, 2], 2, 2, "decided", 2, 2),
    ([], 2, 3, "running", None, 0),
]


@pytest.mark.parametrize(("winners", "target", "cap", "status", "champion", "games"), RACES)
def test_race_table(winners, target, cap, status, champion, games):
    played = [won(w, *({1, 2, 3} - {w})) for w in winners]
    state = race([1, 2, 3], played, target=target, cap=cap)
    assert (state.status, state.champion, state.games) == (status, champion, games)
    assert state.over == (status in ("won", "decided"))


def test_a_tie_at_the_cap_plays_one_more_game_which_decides():
    shared = RaceGame(frozenset({1, 2}), {1: 4, 2: 4, 3: -8})
    state = race([1, 2, 3], [shared, shared], target=2, cap=2)
    assert (state.status, state.tied) == ("tied", (1, 2))
    state = race([1, 2, 3], [shared, shared, won(3, 1, 2)], target=2, cap=2)
    assert state.status == "tied"  # 3 won but 1 and 2 still lead on wins, tied again
    state = race([1, 2, 3], [shared, shared, won(2, 1, 3)], target=2, cap=2)
    assert (state.status, state.champion, state.games) == ("decided", 2, 3)


def test_a_correction_that_undoes_the_decision_reopens_the_race():
    games = [won(1, 2, 3), won(1, 2, 3)]
    assert race([1, 2, 3], games, target=2, cap=5).over
    corrected = [won(1, 2, 3), won(3, 1, 2)]
    state = race([1, 2, 3], corrected, target=2, cap=5)
    assert (state.status, state.champion, state.wins) == ("running", None, {1: 1, 2: 0, 3: 1})


def test_race_order_puts_the_champion_first_then_the_decider_order():
    games = [won(1, 2, 3, 4), won(2, 1, 3, 4), won(1, 2, 3, 4), won(3, 1, 2, 4, score=30)]
    state = race([1, 2, 3, 4], games, target=3, cap=4)
    assert (state.status, state.champion) == ("decided", 1)
    # 2 and 3 have one win each: 3's game scored more; 4 has none
    assert race_order([1, 2, 3, 4], games, state) == [(1, 1), (2, 3), (3, 2), (4, 4)]


def test_race_order_shares_a_rank_the_decider_cannot_part():
    state = race([1, 2, 3], [], target=2, cap=3)
    assert race_order([1, 2, 3], [], state) == [(1, 1), (1, 2), (1, 3)]


@given(st.lists(st.sampled_from([1, 2, 3, 4]), max_size=20), st.integers(1, 4))
def test_race_order_properties(winners, target):
    """Every player once; ranks start at 1 and never fall; the champion (if any) alone
    first; wins never rise down the list."""
    games = [
        RaceGame(frozenset({w}), {p: (9 if p == w else -3) for p in (1, 2, 3, 4)}) for w in winners
    ]
    state = race([1, 2, 3, 4], games, target=target, cap=target * 2)
    order = race_order([1, 2, 3, 4], games, state)
    assert sorted(p for _, p in order) == [1, 2, 3, 4]
    assert order[0][0] == 1 and all(a[0] <= b[0] for a, b in itertools.pairwise(order))
    if state.champion is not None:
        assert order[0][1] == state.champion and order[1][0] == 2
        rest = [state.wins[p] for _, p in order[1:]]
    else:
        rest = [state.wins[p] for _, p in order]
    assert all(a >= b for a, b in itertools.pairwise(rest))
    assert state.games + state.surplus == len(games)
