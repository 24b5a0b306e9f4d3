"""Engine tests for the forfeit rule, late entries' missed rounds and substitute games.

Table-driven cases with the expected values worked out by hand in the comments, and
hypothesis properties: a `shared` forfeit is zero-sum with every present seat a winner;
`not_played` never changes a row; `zero` changes nothing but games played; `average`
keeps a player's score per game.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.game import FORFEIT_RACK_VALUE, forfeit_charge, score_forfeit
from scoring.standings import (
    GameLine,
    PlayerTotals,
    compute_standings,
    compute_standings_from_totals,
)
from tests.scoring.helpers import STANDARD, rules
from tests.scoring.strategies import rule_sets

RANKING = ["games_won", "score"]


def _metrics(rows, player):
    return next(row.metrics for row in rows if row.player == player)


# --- forfeits ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule_set", "charge"),
    [
        (STANDARD, 98),  # 14 tiles at 7
        (rules(no_meld_charge=100), 100),  # the rules' own charge for no meld (MSO)
        (rules(loss_cap=25), 25),  # the cap applies last
        (rules(no_meld_charge=100, loss_cap=25), 25),
    ],
)
def test_forfeit_charge(rule_set, charge):
    assert forfeit_charge(rule_set) == charge


@pytest.mark.parametrize(
    ("present", "absent", "rule", "scores", "winners"),
    [
        # 98 / 3 = 32 rest 2: the first two from the starter (7, then 5) get 33.
        ([7, 5, 6], [8], "shared", {7: 33, 5: 33, 6: 32, 8: -98}, (7, 5, 6)),
        ([1, 2], [3], "shared", {1: 49, 2: 49, 3: -98}, (1, 2)),
        # Two absent seats: a pot of 196 for the two present.
        ([1, 2], [3, 4], "shared", {1: 98, 2: 98, 3: -98, 4: -98}, (1, 2)),
        ([1], [2], "shared", {1: 98, 2: -98}, (1,)),
        ([1, 2, 3], [4], "absent_only", {1: 0, 2: 0, 3: 0, 4: -98}, ()),
    ],
)
def test_score_forfeit(present, absent, rule, scores, winners):
    out = score_forfeit(present=present, absent=absent, rule=rule, rules=STANDARD)
    assert {rack.player: rack.score for rack in out.racks} == scores
    assert out.winners == winners
    assert out.end == "forfeit"
    for rack in out.racks:
        assert rack.charge == (FORFEIT_RACK_VALUE if rack.player in absent else 0)


@pytest.mark.parametrize(
    ("present", "absent", "rule", "field"),
    [
        ([1, 2], [3], "coin_toss", "forfeit_rule"),
        ([1, 2], [], "shared", "player"),
        ([], [1], "shared", "player"),
        ([1, 2], [2], "shared", "player"),
        ([1, 2, 3, 4], [5], "shared", "player"),
    ],
)
def test_score_forfeit_refuses(present, absent, rule, field):
    with pytest.raises(RuleError) as caught:
        score_forfeit(present=present, absent=absent, rule=rule, rules=STANDARD)
    assert caught.value.path == (field,)


@given(
    rule_set=rule_sets(),
    present=st.lists(st.integers(1, 50), min_size=1, max_size=3, unique=True),
    absent_count=st.integers(1, 3),
)
def test_shared_forfeit_is_zero_sum_and_fair(rule_set, present, absent_count):
    absent = [100 + i for i in range(min(absent_count, 4 - len(present)))]
    out = score_forfeit(present=present, absent=absent, rule="shared", rules=rule_set)
    scores = {rack.player: rack.score for rack in out.racks}
    assert sum(scores.values()) == 0
    assert set(out.winners) == set(present)
    shares = [scores[p] for p in present]
    assert max(shares) - min(shares) <= 1  # an equal share, up to the rest
    assert shares == sorted(shares, reverse=True)  # the rest goes from the starter on
    assert all(scores[a] == -forfeit_charge(rule_set) for a in absent)


# --- late entries: missed rounds --------------------------------------------------------

# Players 1 and 2 played round 1 and 2 (two games each round); player 3 joined in round 2
# and missed round 1's 2 games. Round 2: 3 beat 1 twice (20 and 10), 2 sat elsewhere.
LATE_LINES = [
    GameLine(1, 1, 10, 100, 30, 0, True, True),
    GameLine(2, 1, 10, 100, -30, 30, False, False),
    GameLine(1, 1, 10, 101, -5, 5, False, False),
    GameLine(2, 1, 10, 101, 5, 0, True, True),
    GameLine(3, 2, 20, 200, 20, 0, True, True),
    GameLine(1, 2, 20, 200, -20, 20, False, False),
    GameLine(3, 2, 20, 201, 11, 0, True, True),
    GameLine(1, 2, 20, 201, -11, 11, False, False),
]


@pytest.mark.parametrize(
    ("treatment", "expected"),
    [
        # As played: 3 has 2 games, 2 won, score 31.
        ("not_played", {"games_played": 2, "games_won": 2, "score": 31, "rack_total": 0}),
        # Two more games played, worth nothing.
        ("zero", {"games_played": 4, "games_won": 2, "score": 31, "rack_total": 0}),
        # Two more at the own average: 31/2 * 2 = 31, won 1 * 2 = 2.
        ("average", {"games_played": 4, "games_won": 4, "score": 62, "rack_total": 0}),
    ],
)
def test_missed_rounds_treatments(treatment, expected):
    rows = compute_standings(
        players=[1, 2, 3],
        lines=LATE_LINES,
        penalties={},
        ranking=RANKING,
        lot_seed="t",
        missed_games={3: 2},
        missed_rounds=treatment,
    )
    got = _metrics(rows, 3)
    assert {key: got[key] for key in expected} == expected
    # The others are never touched.
    assert _metrics(rows, 1)["games_played"] == 4
    assert _metrics(rows, 1)["score"] == -6


def test_average_with_several_missed_games_rounds_half_away_from_zero():
    # 1 game, score -5 and charge 5; 3 missed: -15 and 15; won 0.
    lines = [
        GameLine(1, 2, 1, 1, -5, 5, False, False),
        GameLine(2, 2, 1, 1, 5, 0, True, True),
    ]
    rows = compute_standings(
        players=[1, 2],
        lines=lines,
        penalties={},
        ranking=["score"],
        lot_seed="t",
        missed_games={1: 3},
        missed_rounds="average",
    )
    assert _metrics(rows, 1)["score"] == -20
    assert _metrics(rows, 1)["rack_total"] == 20
    assert _metrics(rows, 1)["games_played"] == 4


def test_unknown_missed_rounds_treatment_is_a_rule_error():
    with pytest.raises(RuleError) as caught:
        compute_standings(
            players=[1],
            lines=[],
            penalties={},
            ranking=["score"],
            lot_seed="t",
            missed_games={1: 2},
            missed_rounds="double",
        )
    assert caught.value.path == ("missed_rounds",)


def test_missed_games_for_an_unknown_player_is_a_bug():
    with pytest.raises(ValueError, match="not registered"):
        compute_standings(
            players=[1],
            lines=[],
            penalties={},
            ranking=["score"],
            lot_seed="t",
            missed_games={9: 2},
            missed_rounds="zero",
        )


def test_totals_path_applies_the_same_treatment():
    totals = [PlayerTotals(3, 2, 2, 2, 31, 0, 20), PlayerTotals(1, 4, 1, 1, -6, 36, 30)]
    rows = compute_standings_from_totals(
        players=[1, 3],
        totals=totals,
        penalties={},
        ranking=RANKING,
        lot_seed="t",
        missed_games={3: 2},
        missed_rounds="average",
    )
    assert _metrics(rows, 3)["score"] == 62
    assert _metrics(rows, 3)["games_won"] == 4


@given(
    games=st.lists(st.tuples(st.integers(-200, 200), st.booleans()), min_size=0, max_size=12),
    missed=st.integers(0, 12),
)
def test_missed_rounds_properties(games, missed):
    lines = []
    for index, (score, won) in enumerate(games):
        lines.append(GameLine(1, 2, 1, index, score, 0 if won else 5, won, won))
        lines.append(GameLine(2, 2, 1, index, -score, 5 if won else 0, not won, False))
    rows = {}
    for treatment in ("not_played", "zero", "average"):
        rows[treatment] = _metrics(
            compute_standings(
                players=[1, 2],
                lines=lines,
                penalties={},
                ranking=["score"],
                lot_seed="t",
                missed_games={1: missed},
                missed_rounds=treatment,
            ),
            1,
        )
    played = len(games)
    plain, zero, average = rows["not_played"], rows["zero"], rows["average"]
    assert plain["games_played"] == played
    assert zero == {**plain, "games_played": played + missed}
    assert average["games_played"] == played + missed
    if played:
        # The score per game stays the player's own, up to the rounding of half a point.
        assert abs(average["score"] * played - plain["score"] * (played + missed)) <= played
    else:
        assert average == zero


# --- substitutes ------------------------------------------------------------------------

# Round 1, table 10: game 100 played by 1, 2, 3; game 101 with a substitute in 3's seat.
SUB_LINES = [
    GameLine(1, 1, 10, 100, 25, 0, True, True),
    GameLine(2, 1, 10, 100, -10, 10, False, False),
    GameLine(3, 1, 10, 100, -15, 15, False, False),
    GameLine(1, 1, 10, 101, -7, 7, False, False),
    GameLine(2, 1, 10, 101, -3, 3, False, False),
    GameLine(3, 1, 10, 101, 10, 0, True, True, substitute=True),
]


@pytest.mark.parametrize(
    ("credit", "expected_3", "expected_1"),
    [
        # Not credited: 3 has only game 100; 1 and 2 keep both their games.
        (
            False,
            {"score": -15, "games_played": 1, "games_won": 0},
            {"score": 18, "games_played": 2},
        ),
        # Credited: the substitute's win counts for 3.
        (True, {"score": -5, "games_played": 2, "games_won": 1}, {"score": 18, "games_played": 2}),
    ],
)
def test_substitute_games(credit, expected_3, expected_1):
    rows = compute_standings(
        players=[1, 2, 3],
        lines=SUB_LINES,
        penalties={},
        ranking=["games_won", "score", "opponents_score"],
        lot_seed="t",
        credit_substitutes=credit,
    )
    got_3, got_1 = _metrics(rows, 3), _metrics(rows, 1)
    assert {key: got_3[key] for key in expected_3} == expected_3
    assert {key: got_1[key] for key in expected_1} == expected_1
    assert _metrics(rows, 2)["games_played"] == 2


@given(credit=st.booleans(), score=st.integers(-100, 100))
def test_substitute_lines_never_change_the_opponents(credit, score):
    lines = [
        GameLine(1, 1, 1, 1, -score, max(score, 0), score < 0, False),
        GameLine(2, 1, 1, 1, score, max(-score, 0), score >= 0, False, substitute=True),
    ]
    rows = compute_standings(
        players=[1, 2],
        lines=lines,
        penalties={},
        ranking=["score"],
        lot_seed="t",
        credit_substitutes=credit,
    )
    assert _metrics(rows, 1)["score"] == -score
    assert _metrics(rows, 2)["score"] == (score if credit else 0)
    assert _metrics(rows, 2)["games_played"] == int(credit)
