"""Web forms of the scorekeeper's table page (`games.views.entry`): one game's result and a
penalty.

The forms only read what was typed (text into numbers, blank into "not given"); whether
the game can have happened is for `games.services.result_submit` to say, and its
`RuleError` paths land on these fields: ``("racks", 2, "tiles")`` is the tiles input of
the third seat's rack form (`GameEntry.add_rule_errors`).

Terms:
* game entry — one game's result form plus one rack form per seat, in seat order; the
  n-th rack form is ``racks[n]`` of the service's input.
* by tiles / by totals — a rack is entered as its tiles (``R4 B10 J``; blank means an
  empty rack) or, when any of points / tile count / jokers is filled in, by those totals.
* label — how a page names a seated player: "Ada (seat 2)" (`seat_label`), in the winner
  choices, the rack legends and every error message, never a database id.
* winner — chosen, or left blank on a Rummikub end when exactly one rack is blank: that
  player is the winner (the engine's rule, `scoring.game`; the keypad script shows it).
* error summary — all problems of one submission, listed at the top of the game with a
  link to each field (`GameEntry.summary`); each names the player it is about.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.errors import RuleError
from tournaments.web import PageForm, WholeNumberField, add_rule_errors, choice_field

from ..models import Absence, Game, Penalty, RackEntry, Result, Seat
from ..words import seat_label

TOTALS = ("points", "tile_count", "jokers")


class ResultForm(PageForm):
    based_on = WholeNumberField(widget=forms.HiddenInput)
    end = forms.ChoiceField(
        label=_("How did the game end?"),
        # A forfeit is recorded by the organiser (withdrawal, or the round page), not here.
        choices=[(v, label) for v, label in Result.End.choices if v != Result.End.FORFEIT],
        widget=forms.RadioSelect,
    )
    winner = forms.TypedChoiceField(
        label=_("Winner"),
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_(
            "Who emptied the rack — or just leave their rack blank. When the pool "
            "ran out, the lowest rack wins; leave it blank then."
        ),
    )

    def __init__(self, *args: Any, seats: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "winner").choices = [("", "—")] + [
            (seat.player_id, seat_label(seat.player, seat.position)) for seat in seats
        ]


class RackForm(PageForm):
    """One seat's rack; the labels name the player so every input is found by its label."""

    tiles = forms.CharField(required=False)
    points = WholeNumberField(required=False)
    tile_count = WholeNumberField(required=False)
    jokers = WholeNumberField(required=False)
    no_meld = forms.ChoiceField(
        required=False, choices=[("", _("melded")), *RackEntry.NoMeld.choices]
    )
    substitute = forms.CharField(
        required=False,
        max_length=100,
        help_text=_("Only if someone else played this seat in this game: their name."),
    )

    def __init__(self, *args: Any, seat: Seat, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat = seat
        self.label = seat_label(seat.player, seat.position)
        name = seat.player.name
        self.fields["tiles"].label = _("{name} — tiles").format(name=name)
        self.fields["tiles"].widget.attrs.update(
            {
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "data-tiles": "",  # the keypad (static/js/keypad.js) writes here
            }
        )
        self.fields["points"].label = _("{name} — points").format(name=name)
        self.fields["tile_count"].label = _("{name} — tile count").format(name=name)
        self.fields["jokers"].label = _("{name} — jokers").format(name=name)
        self.fields["no_meld"].label = _("{name} — opening meld").format(name=name)
        self.fields["substitute"].label = _("{name} — played by a substitute").format(name=name)
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
        if self.is_bound or value is None:
            return ""
        return ngettext("= {value} point", "= {value} points", value).format(value=value)

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
        if data.get("substitute"):
            rack["substitute"] = data["substitute"]
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
        # A seat left by a withdrawn player whose table plays on has no rack from then on.
        self.all_seats = seats
        seats = [
            seat
            for seat in seats
            if not (
                seat.absence == Absence.PLAYS_ON
                and seat.absent_from is not None
                and seat.absent_from <= game.number
            )
        ]
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
        return GameEntry(self.game, self.all_seats, data=data, rack_value_url=self.rack_value_url)

    @property
    def errors(self) -> bool:
        return bool(self.form.errors) or any(rack.errors for rack in self.racks)

    def summary(self) -> list[dict[str, str]]:
        """Every problem of the submission, for the list at the top of the game: the
        message and the id of the input it is about (the link target). A rack's message
        names its player; one that does not yet (a number the form could not read) gets
        the player's label in front."""
        items = [
            {"target": self._target(self.form, name), "text": str(message)}
            for name, messages in self.form.errors.items()
            for message in messages
        ]
        for rack in self.racks:
            for name, messages in rack.errors.items():
                for message in messages:
                    text = str(message)
                    if rack.label not in text:
                        text = _("{player}: {problem}").format(player=rack.label, problem=text)
                    items.append({"target": self._target(rack, name), "text": text})
        return items

    def _target(self, form: forms.Form, name: str) -> str:
        if name not in form.fields:
            return f"game-{self.game.number}"
        field = form[name]
        if isinstance(field.field.widget, forms.RadioSelect):
            return f"{field.auto_id}_0"
        return field.auto_id


def _initial_from(latest: Result | None) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Prefill from the newest version, so a correction starts from what was entered."""
    if latest is None:
        # Most games end by a Rummikub; the winner then follows from the one blank rack.
        return {"based_on": 0, "end": Result.End.RUMMIKUB}, {}
    if latest.end == Result.End.FORFEIT:
        # A correction of a forfeit is a game really played: nothing to start from.
        return {"based_on": latest.version}, {}
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
        | {"no_meld": rack.no_meld or "", "substitute": rack.substitute}
        for rack in racks
    }
    return initial, rack_initial


class PenaltyForm(PageForm):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    kind = forms.ChoiceField(label=_("Penalty"), choices=Penalty.Kind.choices)
    points = WholeNumberField(
        label=_("Sanction points"), required=False, help_text=_("Only for a sanction.")
    )
    note = forms.CharField(label=_("Note"), required=False)

    def __init__(self, *args: Any, seats: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "player").choices = [("", "—")] + [
            (seat.player_id, seat_label(seat.player, seat.position)) for seat in seats
        ]
