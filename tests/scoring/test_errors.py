"""RuleError, RuleErrors and their DRF error shape."""

from __future__ import annotations

import pytest

from scoring.errors import (
    MAX_LISTED_ERRORS,
    RuleError,
    RuleErrors,
    as_error_dict,
    format_path,
    raise_all,
)


def test_a_field_name_becomes_a_one_item_path() -> None:
    error = RuleError("winner", "player 13 is not in this game")
    assert error.path == ("winner",)
    assert error.message == "player 13 is not in this game"
    assert str(error) == "winner: player 13 is not in this game"


def test_a_nested_path_reads_like_the_input() -> None:
    error = RuleError(("racks", 2, "tiles"), "unknown tile 'X9'")
    assert error.path == ("racks", 2, "tiles")
    assert str(error) == "racks[2].tiles: unknown tile 'X9'"


def test_the_empty_path_is_the_whole_input() -> None:
    assert str(RuleError((), "bad game")) == "bad game"
    assert format_path(()) == ""
    assert format_path(("rules", "joker_penalty")) == "rules.joker_penalty"


def test_rule_errors_hold_every_error_flat() -> None:
    first, second, third = RuleError("a", "one"), RuleError("b", "two"), RuleError("c", "three")
    errors = RuleErrors([first, RuleErrors([second, third])])
    assert errors.errors == [first, second, third]
    assert errors.flatten() == [first, second, third]
    assert isinstance(errors, RuleError)
    assert str(errors) == "a: one; b: two; c: three"


def test_rule_errors_need_at_least_one_error() -> None:
    with pytest.raises(ValueError):
        RuleErrors([])


def test_raise_all_raises_nothing_one_or_all() -> None:
    raise_all([])
    single = RuleError("a", "one")
    with pytest.raises(RuleError) as info:
        raise_all([single])
    assert info.value is single
    with pytest.raises(RuleErrors) as many:
        raise_all([single, RuleError("b", "two")])
    assert [error.path for error in many.value.errors] == [("a",), ("b",)]


def test_error_dict_for_a_plain_field() -> None:
    assert as_error_dict([RuleError("winner", "who?")]) == {"winner": ["who?"]}


def test_error_dict_for_a_list_item_field_covers_the_highest_index() -> None:
    shaped = as_error_dict([RuleError(("racks", 1, "tiles"), "bad tile")])
    assert shaped == {"racks": [{}, {"tiles": ["bad tile"]}]}


def test_error_dict_lists_can_be_sized_to_the_input() -> None:
    shaped = as_error_dict([RuleError(("racks", 1, "tiles"), "bad")], list_lengths={"racks": 4})
    assert shaped == {"racks": [{}, {"tiles": ["bad"]}, {}, {}]}


def test_error_dict_never_shortens_a_list() -> None:
    shaped = as_error_dict([RuleError(("racks", 2, "player"), "twice")], {"racks": 1})
    assert shaped == {"racks": [{}, {}, {"player": ["twice"]}]}


def test_error_dict_for_nested_options_and_the_whole_input() -> None:
    shaped = as_error_dict(
        [
            RuleError(("rules", "joker_penalty"), "too big"),
            RuleError(("rules", "loss_cap"), "too small"),
            RuleError((), "whole"),
        ]
    )
    assert shaped == {
        "rules": {"joker_penalty": ["too big"], "loss_cap": ["too small"]},
        "non_field_errors": ["whole"],
    }


def test_error_dict_keeps_several_messages_of_one_field_in_order() -> None:
    shaped = as_error_dict([RuleError("winner", "one"), RuleError("winner", "two")])
    assert shaped == {"winner": ["one", "two"]}


def test_error_dict_expands_rule_errors() -> None:
    errors = RuleErrors([RuleError("winner", "who?"), RuleError(("racks", 0, "points"), "< 0")])
    assert as_error_dict([errors]) == {"winner": ["who?"], "racks": [{"points": ["< 0"]}]}


def test_error_dict_puts_a_message_on_a_list_item_under_non_field_errors() -> None:
    shaped = as_error_dict([RuleError(("racks", 0), "whole rack")])
    assert shaped == {"racks": [{"non_field_errors": ["whole rack"]}]}


def test_error_dict_nests_lists_in_lists() -> None:
    shaped = as_error_dict([RuleError(("rounds", 1, 0, "name"), "x")], {"rounds": 3})
    assert shaped == {"rounds": [{}, [{"name": ["x"]}], {}]}


def test_error_dict_spills_a_message_on_a_list_that_also_has_item_errors() -> None:
    shaped = as_error_dict(
        [RuleError("racks", "5 racks"), RuleError(("racks", 0, "tiles"), "bad tile")]
    )
    assert shaped == {
        "racks": [{"tiles": ["bad tile"]}],
        "non_field_errors": ["racks: 5 racks"],
    }


def test_error_dict_keeps_a_message_on_a_list_without_item_errors() -> None:
    assert as_error_dict([RuleError("racks", "5 racks")]) == {"racks": ["5 racks"]}


def test_error_dict_of_nothing_is_empty() -> None:
    assert as_error_dict([]) == {}


def test_an_answer_lists_at_most_max_listed_errors_and_counts_the_rest():
    errors = [RuleError("tables", f"table {n}: unknown player.") for n in range(1284)]
    errors.append(RuleError(("racks", 900, "tiles"), "unknown tile."))
    shaped = as_error_dict(errors, {"racks": 1000})
    assert shaped["tables"] == [f"table {n}: unknown player." for n in range(MAX_LISTED_ERRORS)]
    assert shaped["non_field_errors"] == ["… and 1,235 more problems not listed here."]
    assert "racks" not in shaped  # beyond the first fifty


def test_list_padding_stops_at_max_listed_errors():
    shaped = as_error_dict([RuleError(("racks", 1, "tiles"), "bad.")], {"racks": 100_000})
    assert len(shaped["racks"]) == MAX_LISTED_ERRORS
    assert shaped["racks"][1] == {"tiles": ["bad."]}
