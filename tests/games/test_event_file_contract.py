"""The event file's two schemas agree with the engine: the published JSON Schema carries
the rule options' bounds and the ranking metrics (`games.services.event_file`), and the
OpenAPI document types the export with components converted from that same file."""

from __future__ import annotations

import json

from config.openapi import event_file_components
from games.api.examples import EVENT_FILE_EXAMPLE
from games.services.event_file.check import schema_errors
from games.services.event_file.schema import (
    event_file_schema,
    ranking_json_schema,
    rules_json_schema,
)


def test_the_published_schema_carries_the_rules_bounds():
    tournament = event_file_schema()["$defs"]["tournament"]["properties"]
    expected = json.dumps(rules_json_schema(), indent=2, ensure_ascii=False)
    assert tournament["rules"] == rules_json_schema(), f"paste into the schema file:\n{expected}"
    assert tournament["ranking"] == ranking_json_schema()


def test_rules_out_of_bounds_fail_the_schema():
    document = json.loads(json.dumps(EVENT_FILE_EXAMPLE))
    assert schema_errors(document) == []
    document["tournament"]["rules"]["joker_penalty"] = 10**12
    document["tournament"]["ranking"] = ["score", "score"]
    paths = {error.path for error in schema_errors(document)}
    assert ("tournament", "rules", "joker_penalty") in paths
    assert ("tournament", "ranking") in paths


def test_openapi_components_come_from_the_json_schema():
    components = event_file_components()
    source = event_file_schema()
    assert set(components) == {"EventFile"} | {
        "EventFile" + "".join(p.capitalize() for p in name.split("_")) for name in source["$defs"]
    }
    rules = components["EventFileTournament"]["properties"]["rules"]["properties"]
    assert rules["joker_penalty"]["maximum"] == 1000
    assert rules["turn_seconds"]["nullable"] is True
    assert components["EventFile"]["properties"]["format"] == {
        "enum": ["rummitab-event-file"],
        "description": source["properties"]["format"]["description"],
    }
    text = json.dumps(components)
    assert "$defs" not in text and '"const"' not in text
