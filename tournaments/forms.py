"""Web forms of the tournament pages.

A form here only turns what was typed into the values a service takes (text into whole
numbers, "none" into null, lines of start numbers into tables); every rule is checked by
the service, whose `RuleError` the view puts back on the fields (`web.add_rule_errors`).

Terms:
* override — a rule option typed into the tournament form; left blank, the preset's value
  applies. An override field is named like its option (``joker_penalty``).
* start number — a player's `number` in the tournament, what organisers type and print.

Every label, help text and choice a person reads is marked for translation: lazily
(``gettext_lazy``) where it is defined at import, when no language is active yet; the
rule options' names and help come from `scoring.rules` (marked there, translated here).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
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

from .models import (
    Club,
    Division,
    Member,
    Player,
    Season,
    StaffMember,
    Stage,
    Tournament,
    Webhook,
)
from .rules_panel import RulesPreview, rules_preview
from .services.validation import max_length_of
from .web import PageForm, WholeNumberField, whole_number

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


def _metric_choices() -> list[tuple[str, str]]:
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

    def clean(self) -> dict[str, Any]:
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


class StaffForm(PageForm):
    username = forms.CharField(
        label=gettext_lazy("Username"), max_length=max_length_of(get_user_model(), "username")
    )
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=StaffMember.Role.choices)


class RoleForm(PageForm):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=StaffMember.Role.choices)


class StaffAccountForm(PageForm):
    """A new account for someone joining the staff. The service checks the username and
    the password (the site's password rules); a blank password is made up."""

    username = forms.CharField(
        label=gettext_lazy("Username"),
        required=False,
        help_text=gettext_lazy("Letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label=gettext_lazy("Password"),
        required=False,
        strip=False,
        help_text=gettext_lazy("Blank: one is made up and shown to you once."),
        widget=forms.TextInput(attrs={"autocomplete": "new-password", "autocapitalize": "none"}),
    )
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=StaffMember.Role.choices,
        initial=StaffMember.Role.SCOREKEEPER,
    )


class InvitationForm(PageForm):
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=StaffMember.Role.choices,
        initial=StaffMember.Role.SCOREKEEPER,
    )


class InvitationAcceptForm(PageForm):
    """The invitee's own username and password (checked by the service)."""

    username = forms.CharField(
        label=gettext_lazy("Username"),
        required=False,
        help_text=gettext_lazy("Letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label=gettext_lazy("Password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password"].help_text = password_validation.password_validators_help_text_html()


class PlayerForm(PageForm):
    """A player's fields, and the club member they are linked to when the tournament is
    held under a club (`tournament` given: the choices are its club's members; none, or
    a tournament under no club: no member field)."""

    name = forms.CharField(
        label=pgettext_lazy("a person's", "Name"), required=False
    )  # the service requires it
    club = forms.CharField(label=gettext_lazy("Club"), required=False)
    rating = WholeNumberField(label=gettext_lazy("Rating"), required=False)
    fixed_table = WholeNumberField(
        label=gettext_lazy("Fixed table"),
        required=False,
        help_text=gettext_lazy(
            "A mobility need: the table number they sit at every round. Blank: any."
        ),
    )
    member = forms.ModelChoiceField(
        label=gettext_lazy("Club member"),
        queryset=Member.objects.none(),
        required=False,
        empty_label=gettext_lazy("Not linked"),
        help_text=gettext_lazy(
            "The same person in the club's other tournaments, seasons and ratings. Type a "
            "name's first letters to jump to it. A blank name is the member's name."
        ),
    )
    divisions = forms.MultipleChoiceField(
        label=gettext_lazy("Divisions"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Ranked apart in each, as well as in the whole field."),
    )

    member_help_editing = gettext_lazy(
        "The same person in the club's other tournaments, seasons and ratings. Type a "
        "name's first letters to jump to it."
    )

    field_order = ["name", "member", "club", "rating", "fixed_table"]

    def __init__(
        self,
        *args: Any,
        tournament: Tournament | None = None,
        player: Player | None = None,
        divisions: list[Division] | None = None,
        **kwargs: Any,
    ) -> None:
        """`divisions`: the tournament's; without any, the form has no divisions field."""
        super().__init__(*args, **kwargs)
        if divisions:
            # Any slug is taken as sent: the service names one the tournament lacks.
            self.fields["divisions"].choices = [(d.slug, d.name) for d in divisions]
        else:
            del self.fields["divisions"]
        if tournament is None or tournament.club_id is None:
            del self.fields["member"]
            return
        # Who each member is already, so the list says it before the service refuses it.
        taken = {
            member: (name, number)
            for member, name, number in tournament.players.exclude(member=None)
            .exclude(pk=getattr(player, "pk", None))
            .values_list("member", "name", "number")
        }
        field = self.fields["member"]
        if player is not None:  # the name stays as typed when editing
            field.help_text = self.member_help_editing
        field.queryset = tournament.club.members.order_by("name", "pk")  # type: ignore[attr-defined]
        field.label_from_instance = lambda member: _member_label(member, taken)  # type: ignore[attr-defined]

    def values(self) -> dict[str, Any]:
        """The service's keyword arguments: the member by id."""
        values = dict(self.cleaned_data)
        if "member" in values:
            values["member"] = values["member"].pk if values["member"] else None
        return values


def _member_label(member: Member, taken: dict[int, tuple[str, int]]) -> str:
    """ "Ada Peretz (H-1)", and "— already #3 Ann" when another player has them."""
    label = f"{member.name} ({member.code})" if member.code else member.name
    if member.pk in taken:
        name, number = taken[member.pk]
        return gettext("%(member)s — already #%(number)s %(player)s") % {
            "member": label,
            "number": number,
            "player": name,
        }
    return label


class CheckInForm(PageForm):
    """One tap on the check-in page: a player (by id) present or absent."""

    player = WholeNumberField(widget=forms.HiddenInput)
    present = forms.ChoiceField(choices=[("1", "present"), ("0", "absent")])


class PlayerEditForm(PlayerForm):
    number = WholeNumberField(label=gettext_lazy("Start number"), required=False)
    already_qualified = forms.BooleanField(
        label=gettext_lazy("Already qualified"),
        required=False,
        help_text=gettext_lazy(
            "Qualified for the tournament's qualify event at an earlier event: their "
            "qualification slot passes down to the next player."
        ),
    )

    field_order = ["number", "name", "member", "club", "rating"]

    @classmethod
    def initial_for(cls, player: Player, divisions: list[Division] | None = None) -> dict:
        """The form as the player is; their divisions read only when the tournament has
        some (`divisions`)."""
        return {
            "number": player.number,
            "name": player.name,
            "club": player.club,
            "rating": player.rating,
            "member": player.member_id,
            "divisions": (
                [d.slug for d in player.divisions.order_by("order", "name", "id")]
                if divisions
                else []
            ),
            "fixed_table": player.fixed_table,
            "already_qualified": player.already_qualified,
        }

    def changes(self) -> dict[str, Any]:
        """The service's keyword arguments; a blank number is "is required" there."""
        return self.values()


class PlayerImportForm(PageForm):
    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        help_text=gettext_lazy(
            "Columns name,club,rating with a header row, and member (a membership code of "
            "the tournament's club) to link players, and divisions (their slugs, apart by "
            "spaces) to put them in divisions; UTF-8. All rows or none."
        ),
    )


class WebhookForm(PageForm):
    """A new webhook; the service checks the address, the secret and the events."""

    url = forms.CharField(
        label=gettext_lazy("Address (URL)"),
        max_length=500,
        help_text=gettext_lazy("The http:// or https:// address the events are POSTed to."),
        widget=forms.URLInput(attrs={"inputmode": "url", "autocomplete": "off"}),
    )
    secret = forms.CharField(
        label=gettext_lazy("Secret"),
        required=False,
        max_length=200,
        strip=False,
        help_text=gettext_lazy(
            "The key of the signature (16 characters or more). Leave it blank to get "
            "one made up; it is shown once."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"),
        required=False,
        choices=Webhook.Event.choices,
        initial=[choice.value for choice in Webhook.Event],
        widget=forms.CheckboxSelectMultiple,
    )


class ClubForm(PageForm):
    name = forms.CharField(
        label=gettext_lazy("Club name"), required=False
    )  # the service requires it


class MemberForm(PageForm):
    name = forms.CharField(label=pgettext_lazy("a person's", "Name"), required=False)
    code = forms.CharField(
        label=gettext_lazy("Membership code"),
        required=False,
        help_text=gettext_lazy("The club's own number, if any."),
    )
    joined_on = forms.DateField(
        label=gettext_lazy("Joined on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    @classmethod
    def initial_for(cls, member: Member) -> dict[str, Any]:
        return {"name": member.name, "code": member.code, "joined_on": member.joined_on}


class MemberImportForm(PageForm):
    file = forms.FileField(
        label=gettext_lazy("Members CSV file"),
        help_text=gettext_lazy(
            "Columns name,code,joined_on (YYYY-MM-DD) with a header row; UTF-8. All rows or none."
        ),
    )


class ClubOrganiserForm(PageForm):
    username = forms.CharField(label=gettext_lazy("Username"), required=False)


class SeasonForm(PageForm):
    """A season and its rule, as `season_create` takes it (``rule`` is its dict)."""

    name = forms.CharField(label=gettext_lazy("Season name"), required=False)
    rule = forms.ChoiceField(
        label=gettext_lazy("Total by"),
        choices=[
            ("sum", gettext_lazy("Sum of the event scores")),
            ("best", gettext_lazy("Best N events")),
            ("places", gettext_lazy("Points by place in each event")),
            ("best_games", gettext_lazy("Best N games of the season")),
        ],
        initial="sum",
    )
    best = WholeNumberField(
        label=gettext_lazy("Best N"),
        required=False,
        help_text=gettext_lazy("Only for best N events or best N games."),
    )
    place_points = forms.CharField(
        label=gettext_lazy("Points by place"),
        required=False,
        help_text=gettext_lazy(
            "Only for points by place: e.g. 25, 20, 16, 13. Blank: the usual table."
        ),
    )
    cap = WholeNumberField(
        label=gettext_lazy("Cap per event"),
        required=False,
        help_text=gettext_lazy("Blank for none."),
    )

    def clean_place_points(self) -> list[int] | None:
        text = self.cleaned_data["place_points"].strip()
        if not text:
            return None
        numbers = [whole_number(part) for part in re.split(r"[\s,;/]+", text) if part]
        if any(number is None for number in numbers):
            raise forms.ValidationError(gettext("Give whole numbers separated by commas."))
        return numbers  # type: ignore[return-value]

    def season_rule(self) -> dict[str, Any]:
        data = self.cleaned_data
        rule: dict[str, Any] = {"rule": data["rule"], "cap": data["cap"]}
        # What was typed goes to the service, which says beside the field when it does
        # not fit the rule chosen.
        if data["best"] is not None or data["rule"] in ("best", "best_games"):
            rule["best"] = data["best"]
        if data["place_points"]:
            rule["place_points"] = data["place_points"]
        return rule


class HoldUnderForm(PageForm):
    """The club, season and rating of a tournament; the choices are the user's clubs."""

    club = forms.ModelChoiceField(
        label=gettext_lazy("Club"),
        queryset=Club.objects.none(),
        required=False,
        empty_label=gettext_lazy("No club"),
    )
    season = forms.ModelChoiceField(
        label=gettext_lazy("Season"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=gettext_lazy("No season"),
    )
    rated = forms.BooleanField(
        label=gettext_lazy("Rated: its games update the members' ratings"), required=False
    )

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs  # type: ignore[attr-defined]
        seasons = Season.objects.filter(club__in=clubs).select_related("club")
        self.fields["season"].queryset = seasons  # type: ignore[attr-defined]
        self.fields["season"].label_from_instance = lambda season: (  # type: ignore[attr-defined]
            f"{season.club.name} — {season.name}"
        )


class PlayerLinkForm(PageForm):
    """One player's member (none: unlinked)."""

    member = forms.ModelChoiceField(
        label=gettext_lazy("Member"),
        queryset=Member.objects.none(),
        required=False,
        empty_label=gettext_lazy("Not linked"),
    )

    def __init__(self, *args: Any, members: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = members  # type: ignore[attr-defined]


class SideEventForm(PageForm):
    """A side event to start (`games.services.stages.stage_side_start` checks it)."""

    name = forms.CharField(
        label=gettext_lazy("Name of the side event"),
        max_length=60,
        required=False,
        help_text=gettext_lazy("Blank: “Side event”."),
    )


class StageForm(PageForm):
    """A stage to add (`tournaments.services.stages.stage_create` checks everything)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=60, required=False)
    # A side event is started from a closed stage's page, not added here.
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[c for c in Stage.Kind.choices if c[0] != Stage.Kind.SIDE],
    )
    ranking = forms.CharField(
        label=gettext_lazy("Ranking"),
        required=False,
        help_text=gettext_lazy(
            "Metric keys in order, e.g. 'games_won, score'. Blank: the tournament's."
        ),
    )
    cut_top = WholeNumberField(
        label=gettext_lazy("Cut: top N players of the stage before"),
        required=False,
        help_text=gettext_lazy("Stage 1 takes no cut. Later stages: this or a minimum score."),
    )
    cut_min_score = WholeNumberField(label=gettext_lazy("Cut: minimum score"), required=False)
    cut_ties = forms.ChoiceField(
        label=gettext_lazy("A tie at the cut line"), choices=Stage.CutTies.choices, initial="lot"
    )
    carry_over = forms.ChoiceField(
        label=gettext_lazy("Scores carried over"), choices=Stage.CarryOver.choices
    )
    reseat_every_game = forms.BooleanField(
        label=gettext_lazy("Re-seated every game"), required=False
    )
    race_target = WholeNumberField(label=gettext_lazy("Race: first to N wins"), required=False)
    race_cap = WholeNumberField(label=gettext_lazy("Race: at most this many games"), required=False)
    rounds_planned = WholeNumberField(
        label=gettext_lazy("Rounds planned in this stage"),
        required=False,
        help_text=gettext_lazy("The stage pages then say “round 2 of 3”. Blank: not said."),
    )
    division = forms.ChoiceField(
        label=gettext_lazy("Limited to a division"),
        required=False,
        help_text=gettext_lazy("Its cut takes only that division's players. Not for stage 1."),
    )

    def __init__(self, *args: Any, divisions: list[Division] | None = None, **kwargs: Any):
        """`divisions`: the tournament's; without any, the form has no division field."""
        super().__init__(*args, **kwargs)
        if divisions:
            self.fields["division"].choices = [
                ("", gettext_lazy("No: the whole field")),
                *((d.slug, d.name) for d in divisions),
            ]
        else:
            del self.fields["division"]

    def values(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        keys = [key for key in _SPLIT.split(str(data.pop("ranking") or "").strip()) if key]
        if not data.get("division"):
            data.pop("division", None)
        return {**data, **({"ranking": keys} if keys else {})}


class DivisionForm(PageForm):
    """A division to add or change (`tournaments.services.divisions` checks everything)."""

    name = forms.CharField(label=gettext_lazy("Name"), required=False)
    slug = forms.CharField(
        label=gettext_lazy("Short name in addresses"),
        required=False,
        help_text=gettext_lazy(
            "Letters, digits and '-', like 'juniors'. Blank: made from the name."
        ),
    )
    order = WholeNumberField(
        label=gettext_lazy("Order"),
        required=False,
        help_text=gettext_lazy("Its place among the divisions, 0 first. Blank: after the last."),
    )
    prizes = forms.CharField(
        label=gettext_lazy("Prizes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy(
            "One label a line, 1st place first (a blank line: no prize for that place)."
        ),
    )

    @classmethod
    def initial_for(cls, division: Division) -> dict[str, Any]:
        return {
            "name": division.name,
            "slug": division.slug,
            "order": division.order,
            "prizes": "\n".join(division.prizes),
        }

    def values(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["prizes"] = str(data.get("prizes") or "").splitlines()
        # Blank: the service's default (a new division's slug from its name, placed after
        # the last; a division changed keeps its own).
        for name in ("order", "slug"):
            if data.get(name) in (None, ""):
                data.pop(name, None)
        return data


class DivisionPlayersForm(PageForm):
    """Who is in a division: a box per player of the tournament."""

    players = forms.MultipleChoiceField(
        label=gettext_lazy("Players in this division"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(str(p.pk), f"#{p.number} {p.name}") for p in players]

    def player_ids(self) -> list[int]:
        return [int(pk) for pk in self.cleaned_data["players"]]
