"""The page helpers: RuleError paths onto form fields, and the server-drawn chart."""

from __future__ import annotations

from django import forms

from games.chart import line_chart
from scoring.errors import RuleError, RuleErrors
from tournaments.web import PageForm, add_rule_errors


class Main(PageForm):
    end = forms.CharField(required=False)
    joker_penalty = forms.CharField(required=False, help_text="points per joker")


class Rack(PageForm):
    tiles = forms.CharField(required=False)


def bound() -> tuple[Main, list[Rack]]:
    main = Main({})
    racks = [Rack({}, prefix=f"r{n}") for n in range(3)]
    for form in (main, *racks):
        assert form.is_valid()
    return main, racks


def test_paths_land_on_their_fields():
    main, racks = bound()
    add_rule_errors(
        main,
        RuleErrors(
            [
                RuleError(("racks", 2, "tiles"), "unknown tile 'X9'"),
                RuleError("end", "'draw' is not rummikub or pool_exhausted."),
                RuleError(("rules", "joker_penalty"), "must be 0 to 1000"),
                RuleError((), "the game as a whole is wrong"),
                RuleError(("racks", 1), "rack one is odd"),
            ]
        ),
        lists={"racks": racks},
    )
    assert racks[2].errors["tiles"] == ["unknown tile 'X9'"]
    assert main.errors["end"] == ["'draw' is not rummikub or pool_exhausted."]
    assert main.errors["joker_penalty"] == ["must be 0 to 1000"]
    assert main.non_field_errors() == ["the game as a whole is wrong"]
    assert racks[1].non_field_errors() == ["rack one is odd"]
    assert not racks[0].errors


def test_a_path_that_names_no_field_is_spelled_out_and_never_lost():
    main, racks = bound()
    add_rule_errors(main, RuleError(("based_on",), "stale"), lists={"racks": racks})
    add_rule_errors(main, RuleError(("racks", 7, "tiles"), "no such rack"), lists={"racks": racks})
    assert main.non_field_errors() == ["based_on: stale", "racks[7].tiles: no such rack"]


def test_an_input_with_errors_points_at_them():
    main, _ = bound()
    add_rule_errors(main, RuleError("joker_penalty", "too many"))
    widget = main.fields["joker_penalty"].widget
    assert widget.attrs["aria-describedby"] == "id_joker_penalty_errors id_joker_penalty_helptext"


def test_chart_scales_into_the_plot_box_and_keeps_zero():
    chart = line_chart([("R1", 40), ("R2", -20), ("R3", 10)])
    assert [dot.label for dot in chart.dots] == ["start", "R1", "R2", "R3"]
    assert (chart.top_value, chart.bottom_value) == (40, -20)
    assert chart.dots[1].y == chart.top_y and chart.dots[2].y == chart.bottom_y
    assert chart.dots[0].x == chart.left and chart.dots[-1].x == chart.right_x
    assert chart.bottom_y > chart.zero_y > chart.top_y
    assert chart.polyline.count(",") == 4


def test_chart_of_a_flat_line():
    chart = line_chart([("R1", 0)])
    assert chart.top_value == 1 and chart.bottom_value == -1
    assert chart.dots[0].y == chart.dots[1].y == chart.zero_y
