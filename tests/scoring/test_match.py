"""Tests of scoring.match: a target-score match ends after the game in which a match
total reaches the target, tie games between the tied leaders, the games cap with the
match-level tiebreaks, match ranks and the standings' matches won / match points."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.match import (
    MatchGame,
    check_target,
    games_left,
    match_ranks,
    match_state,
    match_totals,
)


def g(*scores: int, winner: int | None = None, rummikub: bool = False) -> MatchGame:
    """A game of players 1..n with these scores; the winner is the top scorer by default."""
    by_player = {p: s for p, s in enumerate(scores, start=1)}
    won = winner or max(by_player, key=lambda p: by_player[p])
    return MatchGame(by_player, frozenset({won}), rummikub)


@pytest.mark.parametrize(
    ("games", "target", "cap", "status", "winners", "counted", "by"),
    [
        # nobody near the target yet
        ([g(30, -10, -10, -10)], 100, None, "running", (), 1, ""),
        # Ann reaches 112 of 100 in game 3: decided there
        (
            [g(40, -20, -10, -10), g(30, -10, -10, -10), g(42, -20, -12, -10)],
            100,
            None,
            "decided",
            (1,),
            3,
            "target",
        ),
        # exactly the target is enough
        ([g(100, -50, -25, -25)], 100, None, "decided", (1,), 1, "target"),
        # two players tied at 60 >= 50: a tie game
        ([g(60, 60, -60, -60, winner=1)], 50, None, "tied", (), 1, ""),
        # the tie game: player 2 wins it, only the contenders 1 and 2 could
        (
            [g(60, 60, -60, -60, winner=1), g(-5, 20, -5, -10)],
            50,
            None,
            "decided",
            (2,),
            2,
            "tie_game",
        ),
        # a non-contender overtaking in the tie game does not win: 3 scores 200, 1 wins
        (
            [g(60, 60, -60, -60, winner=1), g(10, -5, 200, -205, winner=3)],
            50,
            None,
            "decided",
            (1,),
            2,
            "tie_game",
        ),
        # games after the decision are surplus
        ([g(120, -40, -40, -40), g(10, -5, -5, 0)], 100, None, "decided", (1,), 1, "target"),
        # the cap ends it below the target: the highest total wins
        ([g(20, -10, -5, -5), g(10, -5, -5, 0)], 100, 2, "decided", (1,), 2, "cap"),
        # at the cap a tie on the total goes to games won (player 2 won both)
        (
            [g(10, 20, -15, -15, winner=2), g(10, 0, -5, -5, winner=2)],
            100,
            2,
            "decided",
            (2,),
            2,
            "tiebreak",
        ),
    ],
)
def test_match_state(games, target, cap, status, winners, counted, by):
    state = match_state(
        range(1, len(games[0].scores) + 1),
        games,
        target=target,
        cap=cap,
        tiebreaks=("games_won", "best_game"),
    )
    assert (state.status, state.winners, state.games, state.decided_by) == (
        status,
        winners,
        counted,
        by,
    )
    assert state.surplus == len(games) - counted


def test_decided_state_says_the_totals():
    games = [g(40, -20, -10, -10), g(30, -10, -10, -10), g(42, -20, -12, -10)]
    state = match_state([1, 2, 3, 4], games, target=100)
    assert state.totals == {1: 112, 2: -50, 3: -32, 4: -30}
    assert state.winner == 1 and state.leader_total == 112
    assert state.ranks == {1: 1, 4: 2, 3: 3, 2: 4}
    assert games_left(state, None) == 0


def test_shared_win_at_the_cap_when_no_tiebreak_parts():
    games = [MatchGame({1: 5, 2: 5, 3: -10}, frozenset({1, 2}))]
    state = match_state([1, 2, 3], games, target=100, cap=1, tiebreaks=("games_won",))
    assert state.decided and state.winners == (1, 2) and state.decided_by == "shared"
    assert state.ranks == {1: 1, 2: 1, 3: 3}


def test_lot_breaks_the_tie_at_the_cap_and_unknown_tiebreaks_are_skipped():
    games = [MatchGame({1: 5, 2: 5, 3: -10}, frozenset({1, 2}))]
    state = match_state(
        [1, 2, 3],
        games,
        target=100,
        cap=1,
        tiebreaks=("opponents_score", "lot"),
        lots={1: 10, 2: 99, 3: 0},
    )
    assert state.winners == (2,) and state.decided_by == "tiebreak"


def test_games_left_with_and_without_cap():
    state = match_state([1, 2], [MatchGame({1: 5, 2: -5}, frozenset({1}))], target=100, cap=4)
    assert games_left(state, 4) == 3
    assert games_left(state, None) is None


def test_match_ranks_share_equal_totals():
    assert match_ranks({1: 50, 2: -10, 3: -10, 4: -30}, [1]) == {1: 1, 2: 2, 3: 2, 4: 4}


def test_match_totals_count_decided_matches_only():
    decided = match_state([1, 2, 3, 4], [g(120, -40, -40, -40)], target=100)
    running = match_state([5, 6], [MatchGame({5: 20, 6: -20}, frozenset({5}))], target=100)
    totals = match_totals([decided, running])
    assert totals.won == {1: 1, 2: 0, 3: 0, 4: 0}
    # 4/3/1/0: the three losers tied at -40 share place 2
    assert totals.points == {1: 4, 2: 3, 3: 3, 4: 3}


@pytest.mark.parametrize(
    ("target", "cap", "field"),
    [
        (0, None, "target_score"),
        ("100", None, "target_score"),
        (True, None, "target_score"),
        (100, 0, "target_games_cap"),
        (100, 51, "target_games_cap"),
        (100, 2.5, "target_games_cap"),
    ],
)
def test_bad_target_or_cap_names_the_field(target, cap, field):
    with pytest.raises(RuleError) as caught:
        check_target(target, cap)
    assert caught.value.path == (field,)


def test_every_player_needs_a_score():
    with pytest.raises(ValueError, match="every seated player"):
        match_state([1, 2, 3], [MatchGame({1: 5, 2: -5}, frozenset({1}))], target=10)


# --- properties ------------------------------------------------------------------------


@st.composite
def zero_sum_games(draw, players: int = 4):
    """A series of zero-sum games: the winner takes what the losers pay."""
    count = draw(st.integers(1, 12))
    games = []
    for _ in range(count):
        winner = draw(st.integers(1, players))
        losses = {p: -draw(st.integers(0, 60)) for p in range(1, players + 1) if p != winner}
        scores = {**losses, winner: -sum(losses.values())}
        games.append(MatchGame(scores, frozenset({winner})))
    return games


@settings(max_examples=300, deadline=None)
@given(zero_sum_games(), st.integers(1, 200), st.none() | st.integers(1, 12))
def test_the_match_ends_exactly_once_never_before_the_target(games, target, cap):
    players = [1, 2, 3, 4]
    states = [
        match_state(players, games[:n], target=target, cap=cap, tiebreaks=("games_won",))
        for n in range(1, len(games) + 1)
    ]
    ends = [n for n, s in enumerate(states, start=1) if s.decided and s.games == n]
    # decided in exactly one game, and stays decided at that game afterwards
    first = next((n for n, s in enumerate(states, start=1) if s.decided), None)
    if first is None:
        assert ends == []
    else:
        assert ends == [first]
        assert all(s.decided and s.games == first for s in states[first - 1 :])
        end = states[first - 1]
        reached = any(t >= target for t in end.totals.values())
        # never before the target, unless the cap ended it exactly at the cap
        assert reached or (cap is not None and first == cap)
        # ... and never before any total reached the target in an earlier game
        for earlier in states[: first - 1]:
            assert not earlier.decided
        assert all(end.ranks[w] == 1 for w in end.winners)
        if cap is not None:
            assert first <= cap
    for state in states:
        # zero-sum games give zero-sum match totals
        assert sum(state.totals.values()) == 0


@settings(max_examples=200, deadline=None)
@given(zero_sum_games(), st.integers(1, 200))
def test_the_winner_has_the_highest_total_among_the_contenders(games, target):
    state = match_state([1, 2, 3, 4], games, target=target)
    if state.decided_by == "target":
        assert state.totals[state.winners[0]] == max(state.totals.values()) >= target
        assert sorted(state.totals.values()).count(max(state.totals.values())) == 1
