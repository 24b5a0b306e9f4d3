"""Web forms of the round pages (`games.views.rounds`): opening a round (by hand or drawn,
and its preview), swapping two seats, finding one's table and setting the round's clock.

The forms only read what was typed; the services check the rules.

Terms:
* start number — a player's number in the tournament, what organisers type (``#`` allowed
  in front); tables are lines of start numbers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Round, Tournament
from tournaments.selectors import open_stages
from tournaments.web import PageForm, WholeNumberField, choice_field, whole_number

# The most digits a start number can have: a database integer holds 9 safely.
START_NUMBER_DIGITS = 9
_SPLIT = re.compile(r"[\s,;]+")


def start_number(token: str) -> int | None:
    """A start number as typed ("7", "#7"), or None when it is not one: ASCII digits only
    (never "²" or "٣"), and no longer than any start number can be."""
    return whole_number(token.lstrip("#"), digits=START_NUMBER_DIGITS)


class RoundOpenForm(PageForm):
    method = forms.ChoiceField(
        label=_("Seating method"), choices=Round.Method.choices, initial=Round.Method.RANDOM
    )
    tables = forms.CharField(
        label=_("Tables (manual seating)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_(
            "One line per table: the start numbers of its players in seat order, e.g. '1 5 9 13'."
        ),
    )
    # The round this page offers to open: a second click finds it open and opens nothing.
    number = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # Asked only while two stages are open at once (a side event beside the main stage).
    stage = forms.TypedChoiceField(
        label=_("Stage"),
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("Two stages are open at once: which one is this round for?"),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        stages = open_stages(tournament)
        self.asks_stage = len(stages) > 1
        choice_field(self, "stage").choices = [("", "—")] + [
            (s.number, f"{s.number}. {s.name}") for s in stages
        ]

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
                    problems.append(
                        _("line {line}: no player with start number {token}.").format(
                            line=line_number, token=repr(token)
                        )
                    )
                else:
                    table.append(ids[number])
            tables.append(table)
        if problems:
            raise forms.ValidationError(problems)
        return tables


class RoundDrawForm(PageForm):
    """A previewed draw, carried in hidden fields between the preview page and the commit
    (`games.services.draw.round_draw` / `round_open` check it again), with the preview
    page's own inputs: two players to swap in the draw, and "open anyway"."""

    method = forms.ChoiceField(choices=Round.Method.choices, widget=forms.HiddenInput)
    seed = WholeNumberField(required=False, widget=forms.HiddenInput)
    number = WholeNumberField(widget=forms.HiddenInput)
    draw = forms.CharField(widget=forms.HiddenInput)
    stage = WholeNumberField(required=False, widget=forms.HiddenInput)
    player_a = forms.TypedChoiceField(
        label=_("Player"), coerce=int, required=False, empty_value=None
    )
    player_b = forms.TypedChoiceField(
        label=_("swaps seats with"), coerce=int, required=False, empty_value=None
    )
    open_anyway = forms.BooleanField(
        label=_("Open anyway, although results are missing"), required=False
    )

    def __init__(self, *args: Any, seats: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not seats and self.is_bound:
            seats = [(pid, str(pid)) for table in self._posted_draw() for pid in table]
        choices = [("", "—"), *seats]
        choice_field(self, "player_a").choices = choices
        choice_field(self, "player_b").choices = choices

    def _posted_draw(self) -> list[list[int]]:
        try:
            return _draw_tables(self.data.get("draw", ""))
        except forms.ValidationError:
            return []

    def clean_draw(self) -> list[list[int]]:
        return _draw_tables(self.cleaned_data.get("draw") or "")

    def swapped(self) -> list[list[int]]:
        """The draw with the two chosen players' seats exchanged."""
        a, b = self.cleaned_data.get("player_a"), self.cleaned_data.get("player_b")
        for name, value in (("player_a", a), ("player_b", b)):
            if value is None:
                self.add_error(name, _("Choose a player."))
        if a is not None and a == b:
            self.add_error("player_b", _("Choose two different players."))
        if self.errors:
            raise forms.ValidationError(_("no swap"))
        where = {pid: (t, s) for t, table in enumerate(self.cleaned_data["draw"]) for s, pid in
                 enumerate(table)}  # fmt: skip
        tables = [list(table) for table in self.cleaned_data["draw"]]
        (ta, sa), (tb, sb) = where[a], where[b]
        tables[ta][sa], tables[tb][sb] = b, a
        return tables


def _draw_tables(text: str) -> list[list[int]]:
    """The draw as the preview page wrote it: JSON, a list of lists of player ids."""
    try:
        tables = json.loads(text)
    except ValueError:
        tables = None
    if not isinstance(tables, list) or not all(
        isinstance(table, list)
        and all(isinstance(p, int) and not isinstance(p, bool) for p in table)
        for table in tables
    ):
        raise forms.ValidationError(_("The previewed draw could not be read; preview it again."))
    return tables


def draw_json(tables: list[list[int]]) -> str:
    return json.dumps(tables, separators=(",", ":"))


# Up to this many seats the swap form lists them in two selects; above, the two players
# are typed by start number (a select of 1,000 seats is 150 KB on every load of the page
# and cannot be used on a phone).
SWAP_CHOICES_UP_TO = 48


class SeatSwapForm(PageForm):
    """Two players of the round who exchange seats. Either `seats` (the round's seats, for
    a round of at most SWAP_CHOICES_UP_TO: two selects) or `tournament` (a larger round:
    two start numbers, read into the players' ids in one query). Both clean to the
    players' ids the service takes; the service says whether they have seats."""

    player_a = forms.TypedChoiceField(label=_("Player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("swaps seats with"), coerce=int)

    def __init__(
        self,
        *args: Any,
        seats: list[Any] | None = None,
        tournament: Tournament | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        if seats is None:
            for name, label in (
                ("player_a", _("Player (start number)")),
                ("player_b", _("swaps seats with (start number)")),
            ):
                self.fields[name] = WholeNumberField(
                    label=label,
                    widget=forms.TextInput(
                        attrs={"inputmode": "numeric", "autocomplete": "off", "size": 6}
                    ),
                )
            return
        choices = [("", "—")] + [
            (
                seat.player_id,
                _("#{number} {name} (table {table}, seat {seat})").format(
                    number=seat.player.number,
                    name=seat.player.name,
                    table=seat.table.number,
                    seat=seat.position,
                ),
            )
            for seat in seats
        ]
        choice_field(self, "player_a").choices = choices
        choice_field(self, "player_b").choices = choices

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what Form.clean returns (the stubs allow None)
        if self.tournament is None:
            return cleaned
        numbers = {n for n in (cleaned.get("player_a"), cleaned.get("player_b")) if n}
        ids = dict(self.tournament.players.filter(number__in=numbers).values_list("number", "pk"))
        for name in ("player_a", "player_b"):
            number = cleaned.get(name)
            if number is None:
                continue
            if number not in ids:
                self.add_error(
                    name, _("No player has start number {number}.").format(number=number)
                )
            else:
                cleaned[name] = ids[number]
        return cleaned


class FindTableForm(PageForm):
    q = forms.CharField(label=_("Find my table"), required=False, max_length=100)


class RoundClockForm(PageForm):
    minutes = WholeNumberField(
        label=_("Minutes from now"),
        required=False,
        help_text=_(
            "The projector counts down to the end of the round; 0 or blank stops the clock."
        ),
    )
