"""Tests of scoring.ratings: Plackett-Luce ratings from finishing orders."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.ratings import NEW, Rating, rate_game, rate_games


def test_a_new_member_shows_1000():
    assert NEW.shown == 1000


def test_the_winner_gains_and_the_last_loses_most():
    after = rate_game({}, {1: 18, 2: -5, 3: -10, 4: -3})
    assert after[1].mu > NEW.mu > after[3].mu
    assert after[1].mu > after[4].mu > after[2].mu > after[3].mu
    assert all(r.sigma < NEW.sigma for r in after.values())


def test_tied_players_move_alike():
    after = rate_game({}, {1: 8, 2: 8, 3: 8, 4: -24})  # a pool-exhausted three-way win
    assert after[1] == after[2] == after[3]
    assert after[4].mu < NEW.mu


def test_beating_a_stronger_player_gains_more():
    strong = Rating(35.0, 3.0)
    vs_strong = rate_game({2: strong}, {1: 10, 2: -10})[1]
    vs_new = rate_game({}, {1: 10, 2: -10})[1]
    assert vs_strong.mu > vs_new.mu


def test_a_game_needs_two_players():
    with pytest.raises(ValueError):
        rate_game({}, {1: 0})


games = st.lists(
    st.dictionaries(st.integers(1, 8), st.integers(-60, 60), min_size=2, max_size=4),
    max_size=25,
)


@settings(max_examples=60)
@given(games, st.integers(0, 25))
def test_recomputing_from_scratch_equals_updating_game_by_game(season, split):
    """Exactly equal floats, not approximately: the incremental update a worker does
    after each result and the full recompute a command does must agree to the bit."""
    whole = rate_games(season)
    first = rate_games(season[:split])
    incremental = rate_games(season[split:], start=first)
    assert incremental == whole


@given(games)
def test_ratings_are_deterministic_and_only_players_are_rated(season):
    assert rate_games(season) == rate_games(list(season))
    played = {m for game in season for m in game}
    assert set(rate_games(season)) == played


def _openskill_game(ratings, scores):
    """The same game rated by openskill's PlackettLuce itself (the reference)."""
    from openskill.models import PlackettLuce

    from scoring.stages import places

    model = PlackettLuce()
    members = sorted(scores)
    placed = places(scores)
    start = [ratings.get(m, NEW) for m in members]
    teams = [[model.rating(r.mu, r.sigma)] for r in start]
    rated = model.rate(teams, ranks=[placed[m] for m in members])
    return {m: Rating(team[0].mu, team[0].sigma) for m, team in zip(members, rated, strict=True)}


@settings(max_examples=80, deadline=None)  # openskill itself is slow on a busy machine
@given(games)
def test_the_update_is_openskills_plackett_luce_to_the_bit(season):
    """`rate_game` writes openskill's update out without its per-call overhead; every
    rating (ties included, from ratings already moved by earlier games) is the same float."""
    ours: dict[int, Rating] = {}
    theirs: dict[int, Rating] = {}
    for scores in season:
        mine, reference = rate_game(ours, scores), _openskill_game(theirs, scores)
        assert mine == reference
        ours.update(mine)
        theirs.update(reference)
