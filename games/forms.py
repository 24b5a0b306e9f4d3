"""Web forms of the games pages: one game's result and a penalty (the scorekeeper's), and
opening a round, swapping seats and finding one's table (the round pages).

The forms only read what was typed (text into numbers, blank into "not given"); whether
the game can have happened is for `games.services.result_submit` to say, and its
`RuleError` paths land on these fields: ``("racks", 2, "tiles")`` is the tiles input of
the third seat's rack form (`GameEntry.add_rule_errors`).

Terms:
* game entry — one game's result form plus one rack form per seat, in seat order; the
  n-th rack form is ``racks[n]`` of the service's input.
* by tiles / by totals — a rack is entered as its tiles (``R4 B10 J``; blank means an
  empty rack) or, when any of points / tile count / jokers is filled in, by those totals.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.http import QueryDict

from scoring.errors import RuleError
from tournaments.models import Round, Tournament
from tournaments.web import PageForm, WholeNumberField, add_rule_errors, whole_number

from .models import Game, Penalty, RackEntry, Result, Seat

# The most digits a start number can have: a database integer holds 9 safely.
START_NUMBER_DIGITS = 9
_SPLIT = re.compile(r"[\s,;]+")
TOTALS = ("points", "tile_count", "jokers")


class ResultForm(PageForm):
    based_on = WholeNumberField(widget=forms.HiddenInput)
    end = forms.ChoiceField(
        label="How did the game end?", choices=Result.End.choices, widget=forms.RadioSelect
    )
    winner = forms.TypedChoiceField(
        label="Winner",
        coerce=int,
        required=False,
        empty_value=None,
        help_text="Who emptied the rack. When the pool ran out, the lowest rack wins; "
        "leave it blank then.",
    )

    def __init__(self, *args: Any, seats: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [("", "—")] + [
            (seat.player_id, seat.player.name) for seat in seats
        ]


class RackForm(PageForm):
    """One seat's rack; the labels name the player so every input is found by its label."""

    tiles = forms.CharField(required=False)
    points = WholeNumberField(required=False)
    tile_count = WholeNumberField(required=False)
    jokers = WholeNumberField(required=False)
    no_meld = forms.ChoiceField(required=False, choices=[("", "melded"), *RackEntry.NoMeld.choices])

    def __init__(self, *args: Any, seat: Seat, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat = seat
        name = seat.player.name
        self.fields["tiles"].label = f"{name} — tiles"
        self.fields["tiles"].widget.attrs.update(
            {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        )
        self.fields["points"].label = f"{name} — points"
        self.fields["tile_count"].label = f"{name} — tile count"
        self.fields["jokers"].label = f"{name} — jokers"
        self.fields["no_meld"].label = f"{name} — opening meld"
        for field in TOTALS:
            self.fields[field].widget.attrs["inputmode"] = "numeric"

    def live_value(self, url: str) -> None:
        """Show the rack's value as the tiles are typed: htmx asks `url` (the rack-value
        endpoint, which parses them with the tournament's joker penalty)."""
        self.fields["tiles"].widget.attrs.update(
            {
                "hx-get": url,
                "hx-trigger": "input changed delay:250ms",
                "hx-target": f"#{self.prefix}-value",
                "hx-swap": "innerHTML",
                "aria-describedby": f"{self.prefix}-value",
            }
        )

    @property
    def value_id(self) -> str:
        return f"{self.prefix}-value"

    @property
    def shown_value(self) -> str:
        """The rack value of a prefilled rack (before anyone types)."""
        value = self.initial.get("value")
        return "" if self.is_bound or value is None else f"= {value} points"

    def rack(self) -> dict[str, Any]:
        """This rack as the service takes it."""
        data = self.cleaned_data
        rack: dict[str, Any] = {"player": self.seat.player_id}
        totals = {key: data[key] for key in TOTALS if data.get(key) is not None}
        if totals:
            rack.update(totals)
            if data.get("tiles"):
                rack["tiles"] = data["tiles"]  # both given: the service says which to keep
        else:
            rack["tiles"] = data.get("tiles") or ""
        rack["no_meld"] = data.get("no_meld") or None
        return rack


class GameEntry:
    """The result form of one game with its rack forms, bound or prefilled together."""

    def __init__(
        self,
        game: Game,
        seats: list[Seat],
        *,
        data: QueryDict | None = None,
        latest: Result | None = None,
        rack_value_url: str = "",
    ) -> None:
        self.game = game
        self.seats = seats
        self.rack_value_url = rack_value_url
        self.prefix = f"g{game.number}"
        initial, rack_initial = _initial_from(latest)
        self.form = ResultForm(data, prefix=self.prefix, seats=seats, initial=initial)
        self.racks = [
            RackForm(
                data,
                prefix=f"{self.prefix}-r{seat.position}",
                seat=seat,
                initial=rack_initial.get(seat.player_id, {}),
            )
            for seat in seats
        ]
        for rack in self.racks:
            if rack_value_url:
                rack.live_value(rack_value_url)

    def is_valid(self) -> bool:
        # Every form is validated, so every problem shows at once.
        return all([self.form.is_valid(), *[rack.is_valid() for rack in self.racks]])

    def payload(self) -> dict[str, Any]:
        data = self.form.cleaned_data
        return {
            "based_on": data["based_on"],
            "end": data["end"],
            "winner": data.get("winner"),
            "racks": [rack.rack() for rack in self.racks],
        }

    def add_rule_errors(self, error: RuleError) -> None:
        add_rule_errors(self.form, error, lists={"racks": self.racks})

    def rebased(self, data: QueryDict, version: int) -> GameEntry:
        """The same input, now based on `version`: submitting it again replaces that
        version knowingly."""
        data = data.copy()
        data[f"{self.prefix}-based_on"] = str(version)
        return GameEntry(self.game, self.seats, data=data, rack_value_url=self.rack_value_url)

    @property
    def errors(self) -> bool:
        return bool(self.form.errors) or any(rack.errors for rack in self.racks)


def _initial_from(latest: Result | None) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Prefill from the newest version, so a correction starts from what was entered."""
    if latest is None:
        return {"based_on": 0}, {}
    racks = list(latest.racks.all())
    winners = [rack.player_id for rack in racks if rack.winner]
    initial = {
        "based_on": latest.version,
        "end": latest.end,
        "winner": winners[0] if latest.end == Result.End.RUMMIKUB and winners else None,
    }
    rack_initial = {
        rack.player_id: (
            {"tiles": rack.tiles, "value": rack.points}
            if rack.tiles is not None
            else {"points": rack.points, "tile_count": rack.tile_count, "jokers": rack.jokers}
        )
        | {"no_meld": rack.no_meld or ""}
        for rack in racks
    }
    return initial, rack_initial


class PenaltyForm(PageForm):
    player = forms.TypedChoiceField(label="Player", coerce=int)
    kind = forms.ChoiceField(label="Penalty", choices=Penalty.Kind.choices)
    points = WholeNumberField(
        label="Sanction points", required=False, help_text="Only for a sanction."
    )
    note = forms.CharField(label="Note", required=False)

    def __init__(self, *args: Any, seats: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—")] + [
            (seat.player_id, seat.player.name) for seat in seats
        ]


# --- rounds ----------------------------------------------------------------------------------


def start_number(token: str) -> int | None:
    """A start number as typed ("7", "#7"), or None when it is not one: ASCII digits only
    (never "²" or "٣"), and no longer than any start number can be."""
    return whole_number(token.lstrip("#"), digits=START_NUMBER_DIGITS)


class RoundOpenForm(PageForm):
    method = forms.ChoiceField(
        label="Seating method", choices=Round.Method.choices, initial=Round.Method.RANDOM
    )
    tables = forms.CharField(
        label="Tables (manual seating)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text="One line per table: the start numbers of its players in seat order, "
        "e.g. '1 5 9 13'.",
    )
    # The round this page offers to open: a second click finds it open and opens nothing.
    number = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_tables(self) -> list[list[int]] | None:
        """Lines of start numbers -> lists of player ids, for the service to check."""
        text = self.cleaned_data.get("tables") or ""
        if not text.strip():
            return None
        ids = dict(self.tournament.players.values_list("number", "id"))
        tables: list[list[int]] = []
        problems: list[str] = []
        for line_number, line in enumerate(text.splitlines(), start=1):
            tokens = [token.lstrip("#") for token in _SPLIT.split(line.strip()) if token]
            if not tokens:
                continue
            table: list[int] = []
            for token in tokens:
                number = start_number(token)
                if number is None or number not in ids:
                    problems.append(f"line {line_number}: no player with start number {token!r}.")
                else:
                    table.append(ids[number])
            tables.append(table)
        if problems:
            raise forms.ValidationError(problems)
        return tables


class SeatSwapForm(PageForm):
    player_a = forms.TypedChoiceField(label="Player", coerce=int)
    player_b = forms.TypedChoiceField(label="swaps seats with", coerce=int)

    def __init__(self, *args: Any, seats: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [
            (
                seat.player_id,
                f"#{seat.player.number} {seat.player.name} (table {seat.table.number}, "
                f"seat {seat.position})",
            )
            for seat in seats
        ]
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices


class FindTableForm(PageForm):
    q = forms.CharField(label="Find my table", required=False, max_length=100)


class RoundClockForm(PageForm):
    minutes = WholeNumberField(
        label="Minutes from now",
        required=False,
        help_text="The projector counts down to the end of the round; 0 or blank stops the clock.",
    )
