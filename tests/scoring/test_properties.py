"""Properties of scoring over random valid games and random rule sets (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.game import GameIn, GameOut, RackIn, RackOut, score_game
from scoring.rules import RuleSet
from scoring.tiles import Tile, format_tiles, joker_count, parse_tiles, rack_face_value
from tests.scoring.strategies import FULL_SET, rules_and_games

# Timing belongs to the benchmarks; here a slow CI machine must not fail a property.
relaxed = settings(deadline=None)


def by_player(out: GameOut) -> dict[int, RackOut]:
    return {rack.player: rack for rack in out.racks}


@relaxed
@given(rules_and_games())
def test_zero_sum_exactly_in_the_section_4_case(case: tuple[RuleSet, GameIn]) -> None:
    rules, game = case
    out = score_game(game, rules)
    expected = (
        len(out.winners) == 1
        and not rules.no_meld_pays_each
        and rules.win_bonus == 0 == rules.runner_up_bonus
        and not game.sanctions
    )
    assert out.zero_sum == expected
    if out.zero_sum:
        assert sum(rack.score for rack in out.racks) == 0


@relaxed
@given(rules_and_games())
def test_scores_are_the_payments_credits_bonuses_and_sanctions(
    case: tuple[RuleSet, GameIn],
) -> None:
    rules, game = case
    out = score_game(game, rules)
    losers = [rack for rack in out.racks if not rack.winner]
    least = min((rack.charge for rack in losers), default=None)
    paid_by_all = sum(rack.charge for rack in losers)
    for rack in out.racks:
        assert rack.sanction == game.sanctions.get(rack.player, 0)
        if rack.winner:
            # Each winner collects every payment, whoever else it is credited to.
            assert rack.charge == 0
            assert rack.score == paid_by_all + rules.win_bonus - rack.sanction
        else:
            credits = sum(
                other.charge
                for other in losers
                if rules.no_meld_pays_each and other.no_meld and other is not rack
            )
            bonus = rules.runner_up_bonus if rack.charge == least else 0
            assert rack.score == -rack.charge + credits + bonus - rack.sanction


@relaxed
@given(rules_and_games())
def test_charges_follow_section_3(case: tuple[RuleSet, GameIn]) -> None:
    rules, game = case
    out = score_game(game, rules)
    assert out.winners == tuple(rack.player for rack in out.racks if rack.winner)
    winner_value = next(rack.points for rack in out.racks if rack.winner)
    difference = game.end == "pool_exhausted" and rules.exhausted_scoring == "difference"
    for rack in out.racks:
        if rack.winner:
            continue
        charge = rack.points
        if rack.no_meld == "declined" and rules.no_meld_declined_charge is not None:
            charge = rules.no_meld_declined_charge
        elif rack.no_meld is not None and rules.no_meld_charge is not None:
            charge = rules.no_meld_charge
        if difference:
            charge = max(0, charge - winner_value)
        if rules.loss_cap is not None:
            charge = min(charge, rules.loss_cap)
        assert rack.charge == charge


@relaxed
@given(rules_and_games())
def test_pool_exhausted_winners_hold_the_lowest_racks(case: tuple[RuleSet, GameIn]) -> None:
    rules, game = case
    out = score_game(game, rules)
    if game.end != "pool_exhausted":
        return

    def rank(rack: RackOut) -> tuple[int, ...]:
        if rules.exhausted_winner == "fewest_tiles":
            return (rack.tile_count or 0, rack.points)
        return (rack.points,)

    lowest = min(rank(rack) for rack in out.racks)
    assert {rack.player for rack in out.racks if rank(rack) == lowest} == set(out.winners)
    # Naming any of the computed winners changes nothing.
    for winner in out.winners:
        assert score_game(replace(game, winner=winner), rules) == out


@relaxed
@given(rules_and_games(), st.randoms(use_true_random=False))
def test_rack_order_does_not_matter(case: tuple[RuleSet, GameIn], random: Random) -> None:
    rules, game = case
    racks = list(game.racks)
    random.shuffle(racks)
    shuffled = score_game(replace(game, racks=tuple(racks)), rules)
    out = score_game(game, rules)
    assert by_player(shuffled) == by_player(out)
    assert set(shuffled.winners) == set(out.winners)
    assert shuffled.zero_sum == out.zero_sum


@relaxed
@given(rules_and_games())
def test_a_rack_by_totals_scores_like_the_same_rack_by_tiles(
    case: tuple[RuleSet, GameIn],
) -> None:
    rules, game = case

    def as_totals(entry: RackIn) -> RackIn:
        if entry.tiles is None:
            return entry
        jokers = joker_count(entry.tiles)
        points = rack_face_value(entry.tiles) + jokers * rules.joker_penalty
        return RackIn(entry.player, None, points, len(entry.tiles), jokers, entry.no_meld)

    by_tiles = score_game(game, rules)
    by_totals = score_game(replace(game, racks=tuple(map(as_totals, game.racks))), rules)
    assert [r.score for r in by_tiles.racks] == [r.score for r in by_totals.racks]
    assert by_tiles.winners == by_totals.winners


@relaxed
@given(rules_and_games())
def test_rack_value_formula(case: tuple[RuleSet, GameIn]) -> None:
    rules, game = case
    out = score_game(game, rules)
    for entry, rack in zip(game.racks, out.racks, strict=True):
        if entry.tiles is not None:
            numbers = sum(tile.number or 0 for tile in entry.tiles)
            assert rack.points == numbers + rules.joker_penalty * rack.jokers
            assert rack.tile_count == len(entry.tiles)
            assert rack.tiles == format_tiles(entry.tiles)
        else:
            assert rack.points == entry.points and rack.tiles is None


tile_lists = st.lists(
    st.sampled_from(FULL_SET) | st.builds(Tile, st.none(), st.integers(1, 13)), max_size=30
)


@relaxed
@given(tile_lists)
def test_parse_of_format_round_trips(rack: list[Tile]) -> None:
    text = format_tiles(rack)
    assert parse_tiles(text) == tuple(sorted(rack))
    assert format_tiles(parse_tiles(text)) == text


@relaxed
@given(tile_lists, st.sampled_from([" ", ",", ", ", " ,\t"]))
def test_any_case_and_separator_parse_the_same(rack: list[Tile], separator: str) -> None:
    written = separator.join(str(tile).lower().replace("o", "y") for tile in rack)
    assert parse_tiles(written) == tuple(rack)
