"""The event file's format: its name and version, the members a tournament, a stage and a
rack carry, and its JSON Schema (`games/schemas/event-file-1.schema.json`, with the rule
options' and the ranking's parts made from the engine's own lists).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from scoring.rules import OPTIONS, PRESET_NAMES
from scoring.standings import METRICS

FORMAT = "rummitab-event-file"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schemas" / "event-file-1.schema.json"
GENERATOR = "Rummitab"


TOURNAMENT_FIELDS = (
    "name", "status", "rules", "ranking", "table_size", "games_per_table", "rounds_planned",
    "target_score", "results_need_confirmation", "club_avoidance", "public", "missed_rounds",
    "forfeit_rule", "credit_substitute_games",
)  # fmt: skip
# A stage's settings, as `tournaments.services.stages` checks them; `number`, `status`
# and `side_of` beside them.
STAGE_FIELDS = (
    "name", "kind", "ranking", "carry_over", "cut_top", "cut_min_score", "cut_ties",
    "reseat_every_game", "race_target", "race_cap",
)  # fmt: skip
# The stage graph's fields, optional in a file (files written before it leave them out;
# their defaults are what every stage was then); `source` travels as a stage number.
STAGE_GRAPH_FIELDS = {
    "entry": "", "rank_from": None, "rank_to": None, "table_top": None, "best_losers": 0,
    "carry_rounding": "toward_zero", "games_per_table": None, "seating": "",
}  # fmt: skip
RACK_FIELDS = (
    "tiles", "points", "tile_count", "jokers", "no_meld", "charge", "score", "winner",
    "substitute", "forfeit",
)  # fmt: skip


def rules_json_schema() -> dict[str, Any]:
    """`tournament.rules` of the JSON Schema, made from the rule options themselves
    (`scoring.rules.OPTIONS`: kinds, bounds, choices, null), so that a value the import
    would refuse is refused by the schema too. The published file keeps a copy, and
    tests/games/test_event_file_contract.py holds the two equal (it prints the value to
    paste when an option changes)."""

    def option_schema(name: str) -> dict[str, Any]:
        option = OPTIONS[name]
        if option.kind == "int":
            schema: dict[str, Any] = {
                "type": "integer",
                "minimum": option.minimum,
                "maximum": option.maximum,
            }
        elif option.kind == "bool":
            schema = {"type": "boolean"}
        elif option.kind == "points":
            schema = {
                "type": "object",
                "propertyNames": {"enum": ["2", "3", "4"]},
                "additionalProperties": {"type": "array", "items": {"type": "integer"}},
            }
        else:
            schema = {"enum": list(option.choices)}
        if option.nullable:
            if "enum" in schema:
                schema["enum"] = [*schema["enum"], None]
            else:
                schema["type"] = [schema["type"], "null"]
        schema["description"] = option.help
        return schema

    return {
        "type": "object",
        "required": ["preset"],
        "additionalProperties": False,
        "description": "The rule set: `preset` and the value of every rule option, all "
        "resolved; each option within the bounds the rules allow.",
        "properties": {
            "preset": {"enum": list(PRESET_NAMES), "description": "The preset it started from."},
            **{name: option_schema(name) for name in OPTIONS},
        },
    }


def ranking_json_schema() -> dict[str, Any]:
    """`tournament.ranking` of the JSON Schema: the metrics a ranking may name, each once
    (`scoring.standings.METRICS`, as `validate_ranking` checks them)."""
    return {
        "type": "array",
        "items": {"enum": [key for key, metric in METRICS.items() if metric.direction]},
        "minItems": 1,
        "uniqueItems": True,
        "description": "The standings metrics in ranking order (e.g. games_won, score, lot).",
    }


@cache
def event_file_schema() -> dict[str, Any]:
    """The JSON Schema of the event file, as kept in the repository."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
