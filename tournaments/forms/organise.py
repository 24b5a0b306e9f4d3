"""The tournament form: its settings, the rule preset and single-option overrides.

Only what was typed is read here; the services check the rules (`tournaments.forms`).

Terms:
* override — a rule option typed into the tournament form; left blank, the preset's value
  applies. An override field is named like its option (``joker_penalty``).

The rule options' names and help come from `scoring.rules` (marked there, translated here).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from scoring.rules import (
    CHOICE_LABELS,
    DEFAULT_PRESET,
    OPTION_LABELS,
    OPTIONS,
    PRESET_LABELS,
    PRESET_NAMES,
    overrides_of,
)
from scoring.seating import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.standings import METRICS

from ..models import Tournament

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from ..rules_panel import RulesPreview, rules_preview
from ..web import PageForm, WholeNumberField, whole_number

NONE_WORDS = {"none", "null", "no limit", "-"}
_SPLIT = re.compile(r"[\s,;]+")


def _override_field(name: str) -> forms.Field:
    option = OPTIONS[name]
    label = gettext_lazy(OPTION_LABELS[name])
    as_preset = ("", gettext_lazy("as the preset"))
    if option.kind == "bool":
        return forms.ChoiceField(
            label=label,
            required=False,
            choices=[
                as_preset,
                ("true", pgettext_lazy("rule option value", "yes")),
                ("false", pgettext_lazy("rule option value", "no")),
            ],
            help_text=gettext_lazy(option.help),
        )
    if option.kind == "choice":
        return forms.ChoiceField(
            label=label,
            required=False,
            choices=[as_preset, *((c, gettext_lazy(CHOICE_LABELS[c])) for c in option.choices)],
            help_text=gettext_lazy(option.help),
        )
    if option.kind == "points":
        return forms.CharField(
            label=label,
            required=False,
            help_text=gettext_lazy(
                "Points by finishing place for each table size, e.g. '4: 4 3 1 0; 3: 4 2 0; "
                "2: 4 0' (a size left out keeps 4/3/1/0, 4/2/0, 4/0). Blank: as the preset. "
                "Rank by placement_points to use them."
            ),
            widget=forms.TextInput(attrs={"autocomplete": "off"}),
        )
    if option.nullable:
        hint = gettext_lazy("Blank: as the preset. Type 'none' for none.")
    else:
        hint = gettext_lazy("Blank: as the preset.")
    return forms.CharField(
        label=label,
        required=False,
        help_text=format_lazy("{help} {hint}", help=gettext_lazy(option.help), hint=hint),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


def _parse_override(name: str, text: str) -> Any:
    """What the organiser typed for one option, as the value the rules take.

    Returns `...` for blank (no override). Text that is not a number is passed on as it
    is, so the rules' own check names it in its message.
    """
    text = text.strip()
    if not text:
        return ...
    kind = OPTIONS[name].kind
    if kind == "bool":
        return text == "true"
    if kind == "choice":
        return text
    if kind == "points":
        return parse_points_table(text)
    if text.lower() in NONE_WORDS:
        return None
    number = whole_number(text)
    return text if number is None else number


_POINTS_ENTRY = re.compile(r"^\s*(\S+?)\s*[:=]\s*(.*)$")
_POINTS_SPLIT = re.compile(r"[\s,/]+")


def parse_points_table(text: str) -> dict[str, list[Any]]:
    """A placement table as typed, "4: 4 3 1 0; 3: 4/2/0", as the rules take it:
    {"4": [4, 3, 1, 0], "3": [4, 2, 0]}. Entries are separated by ";" or new lines;
    what is not a whole number is passed on as it is, so the rules' own check names it."""
    table: dict[str, list[Any]] = {}
    for entry in re.split(r"[;\n]+", text):
        if not entry.strip():
            continue
        match = _POINTS_ENTRY.match(entry)
        size, points = (match.group(1), match.group(2)) if match else (entry.strip(), "")
        values = [token for token in _POINTS_SPLIT.split(points.strip()) if token]
        table[size] = [
            whole_number(token) if whole_number(token) is not None else token for token in values
        ]
    return table


def points_table_text(table: Any) -> str:
    """A stored placement table as the override field shows it: "4: 4 3 1 0; 3: 4 2 0"."""
    return "; ".join(
        f"{size}: {' '.join(str(v) for v in table[size])}"
        for size in sorted(table, key=lambda s: -int(s))
    )


def _as_typed(name: str, value: Any) -> Any:
    """An option's value as its override field shows it ("true"/"false", "none")."""
    if OPTIONS[name].kind == "bool":
        return "true" if value else "false"
    if OPTIONS[name].kind == "points":
        return points_table_text(value)
    return "none" if value is None else value


def _same(value: Any) -> str:
    """A value as a comparable text: a posted "4" and a stored 4 are the same."""
    if value is None or value is False:
        return "" if value is None else "false"
    if value is True:
        return "true"
    return str(value).strip()


def _optional_int(label: Any, help_text: Any = "") -> forms.IntegerField:
    return WholeNumberField(label=label, required=False, help_text=help_text)


def _ranking_help() -> str:
    """The ranking field's help, listing every metric key with its name in words."""
    # The metric's name as translated, never lower-cased: German capitalises its nouns
    # ("Schreiber", "Punkte"), and a translation is used as it is.
    keys = ", ".join(f"{key} ({gettext(metric.name)})" for key, metric in METRICS.items())
    return gettext(
        "Metric keys in order, e.g. 'games_won, score'. Blank: the preset's. Keys: {keys}. "
        "Uneven tables: when the players do not divide into tables of the same size "
        "(14 players at tables of 4 sit at 2 tables of 4 and 2 of 3), a table of 3 plays "
        "3 games and a table of 4 plays 4, so totals favour the bigger tables. Rank by "
        "score_per_game and won_per_game (score and games won divided by games played, to "
        "2 decimal places, halves away from zero; players shown equal are equal and the "
        "next metric decides) to compare them fairly, e.g. 'won_per_game, score_per_game'."
    ).format(keys=keys)


def _preset_choices() -> list[tuple[str, str]]:
    """Each preset by its name in words, then its one line ("Standard club rules" / "Meld
    30, …"), for a radio button each. The value stays the key the API and the stored
    rules spell."""
    return [
        (
            key,
            format_html(
                '<span><span class="preset-name">{}</span> '
                '<span class="preset-line">{}</span></span>',
                gettext(PRESET_LABELS[key][0]),
                gettext(PRESET_LABELS[key][1]),
            ),
        )
        for key in PRESET_NAMES
    ]


def _metric_choices() -> list[tuple[str, StrOrPromise]]:
    """The metrics a ranking may name, by name and direction, after a "not used" blank."""
    directions = {
        "higher": gettext("{metric} (higher is better)"),
        "lower": gettext("{metric} (lower is better)"),
    }
    return [("", pgettext_lazy("ranking place", "— not used —"))] + [
        (key, directions[metric.direction].format(metric=gettext(metric.name)))
        for key, metric in METRICS.items()
        if metric.direction is not None
    ]


# The ranking is picked from named metrics, one select per place ("ranking_1" first): it
# works without JavaScript and with the keyboard. At least this many places are offered,
# and always two more than a ranking already holds.
RANKING_PLACES = 6
RANKING_PLACE = re.compile(r"^ranking_(\d+)$")
# Settings that lock once a result is entered (docs/rules/decisions.md, "Settings after the
# first result"): the rules (preset and every option) and the format of a round — players
# per table and games per table, which earlier rounds were played and counted under.
LOCKED_AFTER_FIRST_RESULT = ("preset", *OPTIONS, "table_size", "games_per_table")


class TournamentForm(PageForm):
    """Create or edit a tournament: settings, the preset and single-option overrides.

    `locked` (the settings page once a result exists): the fields of
    `LOCKED_AFTER_FIRST_RESULT` are shown disabled with the reason, their values stay the
    tournament's; a page loaded before the lock that posts a changed value gets the
    refusal beside that field, and nothing is saved.
    """

    # Not required here: the service says what a name needs, for the form and the API alike.
    name = forms.CharField(label=gettext_lazy("Name"), required=False)
    slug = forms.CharField(
        label=gettext_lazy("Web address (slug)"),
        required=False,
        help_text=gettext_lazy("Lowercase letters, digits and hyphens; blank: made from the name."),
    )
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    status = forms.ChoiceField(label=gettext_lazy("Status"), choices=Tournament.Status.choices)
    preset = forms.ChoiceField(
        label=gettext_lazy("Rule preset"),
        choices=lazy(_preset_choices, list)(),
        initial=DEFAULT_PRESET,
        widget=forms.RadioSelect(attrs={"class": "presets"}),
    )
    # The ranking as metric keys in a text ("games_won, score"), for a client that posts
    # it so; the page shows the selects `ranking_1`… instead, which win when sent.
    ranking = forms.CharField(
        label=gettext_lazy("Ranking"),
        required=False,
        help_text=lazy(_ranking_help, str)(),
    )
    table_size = _optional_int(
        gettext_lazy("Players per table"),
        format_lazy(
            gettext_lazy(
                "{minimum} to {maximum}; blank: the preset's table size ({maximum}; 2 for "
                "the MSO preset)."
            ),
            minimum=MIN_TABLE_SIZE,
            maximum=MAX_TABLE_SIZE,
        ),
    )
    games_per_table = _optional_int(
        gettext_lazy("Games per table"), gettext_lazy("Blank: one game per seated player.")
    )
    rounds_planned = _optional_int(gettext_lazy("Rounds planned"))
    target_score = _optional_int(gettext_lazy("Target score"), gettext_lazy("Blank: no target."))
    target_games_cap = _optional_int(
        gettext_lazy("Games cap of a target match"),
        gettext_lazy("With a target: the match ends after this many games at the latest."),
    )
    results_need_confirmation = forms.BooleanField(
        label=gettext_lazy("Results need a second person's confirmation"), required=False
    )
    club_avoidance = forms.ChoiceField(
        label=gettext_lazy("Keep clubs apart"),
        required=False,  # left out: unchanged (a new tournament: the default)
        choices=Tournament.ClubAvoidance.choices,
        initial=Tournament.ClubAvoidance.WEIGHTED,
        help_text=gettext_lazy(
            "Drawn rounds: in round 1 no two players of one club share a table when that "
            "is possible; later rounds first avoid repeat meetings, then clubs (or not at all)."
        ),
    )
    public = forms.BooleanField(
        label=gettext_lazy("Public (anyone may follow it)"), required=False, initial=True
    )
    missed_rounds = forms.ChoiceField(
        label=gettext_lazy("A late entry's missed rounds count as"),
        choices=Tournament.MissedRounds.choices,
        initial=Tournament.MissedRounds.NOT_PLAYED,
        required=False,  # not sent: unchanged
        help_text=gettext_lazy(
            "“Not played (nothing added)”: they simply have fewer games. “Played, scoring "
            "zero”: games played that scored 0 (matters for per-game averages). “At the "
            "player's own average per game”: games at their own average per game so far. "
            "The standings mark every late entry with this."
        ),
    )
    forfeit_rule = forms.ChoiceField(
        label=gettext_lazy("When a withdrawn player's seat forfeits a game"),
        choices=Tournament.ForfeitRule.choices,
        initial=Tournament.ForfeitRule.SHARED,
        required=False,  # not sent: unchanged
        help_text=gettext_lazy(
            "The absent seat pays a whole starting rack (14 tiles at 7 = 98, or the "
            "rules' no-meld charge; the loss cap applies). “Shared by the players present”: "
            "they all win and share it. “Charged to the absent seat only”: they score 0 and "
            "nobody wins. Applies to forfeits recorded from now on."
        ),
    )
    credit_substitute_games = forms.BooleanField(
        label=gettext_lazy("Count a substitute's games for the seat's player"),
        required=False,
        help_text=gettext_lazy("Off: a game a substitute played counts only for the opponents."),
    )
    qualify_slots = WholeNumberField(
        label=gettext_lazy("Number of slots"),
        required=False,
        help_text=gettext_lazy(
            "How many of the final standings qualify for the event below; a player marked "
            "already qualified passes the slot down to the next one. Blank: no slots."
        ),
    )
    qualify_event = forms.CharField(
        label=gettext_lazy("Qualify for"),
        required=False,
        help_text=gettext_lazy("The event the slots lead to, e.g. the national final."),
    )

    def __init__(
        self, *args: Any, editing: bool = False, locked: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for name in OPTIONS:
            self.fields[name] = _override_field(name)
        self._add_ranking_places()
        self.locked = locked
        if locked:
            for name in LOCKED_AFTER_FIRST_RESULT:
                field = self.fields[name]
                field.disabled = True
                field.help_text = format_lazy(
                    "{why} {help}",
                    why=gettext_lazy("Locked: results have been entered."),
                    help=field.help_text,
                )
                field.widget.attrs["aria-describedby"] = f"id_{name}_helptext"
        if editing:
            del self.fields["slug"]  # the slug never changes: printed QR codes point at it
        else:
            del self.fields["status"]
            # Late entries, withdrawals and substitutes happen once the event runs: these
            # are set on the settings page (the tournament starts with the defaults).
            for name in self.SATURDAY + self.QUALIFICATION:
                del self.fields[name]

    GENERAL = ("name", "slug", "starts_on", "status", "public", "results_need_confirmation")
    PLAY = (
        "preset",
        "ranking",
        "table_size",
        "games_per_table",
        "rounds_planned",
        "target_score",
        "target_games_cap",
        "club_avoidance",
    )
    SATURDAY = ("missed_rounds", "forfeit_rule", "credit_substitute_games")
    QUALIFICATION = ("qualify_slots", "qualify_event")

    def _add_ranking_places(self) -> None:
        initial = [key for key in _SPLIT.split(str(self.initial.get("ranking") or "")) if key]
        sent = [
            int(match.group(1))
            for name in (self.data if self.is_bound else {})
            if (match := RANKING_PLACE.match(name))
        ]
        places = min(max(RANKING_PLACES, len(initial) + 2, *sent, 0), len(METRICS))
        for place in range(1, places + 1):
            self.fields[f"ranking_{place}"] = forms.ChoiceField(
                label=format_lazy(pgettext_lazy("ranking place", "Place {place}"), place=place),
                required=False,
                choices=lazy(_metric_choices, list)(),
                initial=initial[place - 1] if place <= len(initial) else "",
            )

    @property
    def ranking_fields(self) -> list[forms.BoundField]:
        """The ranking's selects, the first place first."""
        return [self[name] for name in self.fields if RANKING_PLACE.match(name)]

    @property
    def locked_fields(self) -> list[forms.BoundField]:
        """The disabled fields (to send their values with the live rules panel's query)."""
        return [self[name] for name in LOCKED_AFTER_FIRST_RESULT if self.locked]

    def clean(self) -> dict[str, Any] | None:
        data = super().clean()
        if self.locked:
            # A page loaded before the first result still has these editable: say so
            # beside the field rather than keep the old value without a word.
            for name in LOCKED_AFTER_FIRST_RESULT:
                if name in self.data and _same(self.data.get(name)) != _same(
                    self.initial.get(name)
                ):
                    self.add_error(
                        name,
                        gettext(
                            "cannot change once a result has been entered; it stays as it was."
                        ),
                    )
        return data

    @property
    def qualification_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.QUALIFICATION if name in self.fields]

    @property
    def saturday_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.SATURDAY if name in self.fields]

    @property
    def general_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.GENERAL if name in self.fields]

    @property
    def play_fields(self) -> list[forms.BoundField]:
        """The play settings but the ranking (its own group of selects)."""
        return [self[name] for name in self.PLAY if name != "ranking"]

    @property
    def override_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in OPTIONS]

    @property
    def overrides_open(self) -> bool:
        """Show the override inputs unfolded when one of them holds something."""
        return any(field.errors or field.value() for field in self.override_fields)

    def _value(self, name: str) -> Any:
        # Before validation (the live rules panel) the raw input is all there is.
        if hasattr(self, "cleaned_data"):
            return self.cleaned_data.get(name)
        return self.data.get(name) if self.is_bound else self[name].initial

    def rule_choice(self) -> tuple[str, dict[str, Any]]:
        """The chosen preset and overrides."""
        overrides: dict[str, Any] = {}
        for name in OPTIONS:
            value = _parse_override(name, str(self._value(name) or ""))
            if value is not ...:
                overrides[name] = value
        return self._value("preset") or DEFAULT_PRESET, overrides

    def ranking_keys(self) -> list[str] | None:
        """The ranking chosen: the selects' metrics in place order (blanks skipped) when
        the page sent them, else the keys typed in `ranking`; None: the preset's."""
        places = [field.name for field in self.ranking_fields]
        if self.is_bound and any(name in self.data for name in places):
            keys = [str(self._value(name) or "") for name in places]
            return [key for key in keys if key] or None
        text = str(self._value("ranking") or "")
        keys = [key for key in _SPLIT.split(text.strip()) if key]
        return keys or None

    def preview(self) -> RulesPreview:
        preset, overrides = self.rule_choice()
        return rules_preview(str(preset), overrides, self.ranking_keys())

    def service_values(self) -> dict[str, Any]:
        """Keyword arguments for tournament_create / tournament_update."""
        data = self.cleaned_data
        preset, overrides = self.rule_choice()
        values = {
            "name": data["name"],
            "starts_on": data.get("starts_on"),
            "preset": preset,
            "rules": overrides,
            "ranking": self.ranking_keys(),
            "table_size": data.get("table_size"),
            "games_per_table": data.get("games_per_table"),
            "rounds_planned": data.get("rounds_planned"),
            "target_score": data.get("target_score"),
            "target_games_cap": data.get("target_games_cap"),
            "results_need_confirmation": data.get("results_need_confirmation", False),
            "public": data.get("public", False),
        }
        if data.get("club_avoidance"):
            values["club_avoidance"] = data["club_avoidance"]
        if "slug" in self.fields:
            values["slug"] = data.get("slug") or None
        if "status" in self.fields:
            values["status"] = data["status"]
        for name in ("missed_rounds", "forfeit_rule"):
            if data.get(name):
                values[name] = data[name]
        if "credit_substitute_games" in self.fields:
            values["credit_substitute_games"] = data.get("credit_substitute_games", False)
        if "qualify_slots" in self.fields:
            values["qualify_slots"] = data.get("qualify_slots")
            values["qualify_event"] = data.get("qualify_event") or ""
        return values

    @classmethod
    def initial_for(cls, tournament: Tournament) -> dict[str, Any]:
        return {
            "name": tournament.name,
            "starts_on": tournament.starts_on,
            "status": tournament.status,
            "preset": tournament.rules["preset"],
            "ranking": ", ".join(tournament.ranking),
            "table_size": tournament.table_size,
            "games_per_table": tournament.games_per_table,
            "rounds_planned": tournament.rounds_planned,
            "target_score": tournament.target_score,
            "target_games_cap": tournament.target_games_cap,
            "results_need_confirmation": tournament.results_need_confirmation,
            "club_avoidance": tournament.club_avoidance,
            "public": tournament.public,
            "missed_rounds": tournament.missed_rounds,
            "forfeit_rule": tournament.forfeit_rule,
            "credit_substitute_games": tournament.credit_substitute_games,
            "qualify_slots": tournament.qualify_slots,
            "qualify_event": tournament.qualify_event,
            **{
                name: _as_typed(name, value)
                for name, value in overrides_of(tournament.rules).items()
            },
        }
