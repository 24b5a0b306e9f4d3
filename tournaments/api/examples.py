"""The examples of the tournaments app's API, as the OpenAPI schema shows them: one
list per operation, named after its view and method (`PLAYER_DETAIL_PATCH`: the PATCH
of `tournaments.api.players.PlayerDetailView`), beside the sample bodies they share.
`tests/test_openapi_examples.py` checks every one against the schema it illustrates.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from scoring.rules import PRESETS

# --- checkin ------------------------------------------------------------------

CHECKIN_EXAMPLE = {
    "round": 3,
    "present": 1,
    "absent": 1,
    "players": [
        {"player": 11, "number": 1, "name": "Ada Peretz", "club": "Haifa RC", "present": True},
        {"player": 12, "number": 2, "name": "Ben Levi", "club": "", "present": False},
    ],
}

BAD_INPUT_EXAMPLES = [
    OpenApiExample(
        "Withdrawn player",
        value={"player": ["#2 Ben Levi has withdrawn and is not seated; reinstate them first."]},
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "Round already open",
        value={"round": ["round 2 is already open and seated; its check-in is closed (...)."]},
        response_only=True,
        status_codes=["409"],
    ),
]

CHECK_IN_GET = [OpenApiExample("Check-in", value=CHECKIN_EXAMPLE, response_only=True)]

CHECK_IN_PUT = [
    OpenApiExample("Absent", value={"player": 12, "present": False}, request_only=True),
    OpenApiExample("Check-in", value=CHECKIN_EXAMPLE, response_only=True),
    *BAD_INPUT_EXAMPLES,
]

CHECK_IN_EVERYONE_POST = [OpenApiExample("Check-in", value=CHECKIN_EXAMPLE, response_only=True)]


# --- clubs --------------------------------------------------------------------

MEMBER_EXAMPLE = OpenApiExample(
    "Member",
    response_only=True,
    value={"id": 7, "name": "Ada Peretz", "code": "117", "joined_on": None},
)

CLUB_SUMMARY_EXAMPLE = {"slug": "haifa-joker", "name": "Haifa Joker"}

CLUB_ORGANISER_EXAMPLE = {"username": "alice", "added_at": "2026-03-01T18:00:00Z"}

MEMBER_LIST_GET = [MEMBER_EXAMPLE]

MEMBER_LIST_POST = [
    OpenApiExample("New member", request_only=True, value={"name": "Ada Peretz", "code": "117"}),
    MEMBER_EXAMPLE,
]

SEASON_LIST_GET = [
    OpenApiExample(
        "Seasons",
        response_only=True,
        value={
            "slug": "spring-2026",
            "name": "Spring 2026",
            "rule": {"rule": "best", "best": 6, "place_points": [25, 20], "cap": 120},
        },
    )
]

SEASON_LIST_POST = [
    OpenApiExample(
        "Best 6 of 8",
        request_only=True,
        value={"name": "Spring 2026", "rule": {"rule": "best", "best": 6, "cap": 120}},
    ),
    OpenApiExample(
        "Best 20 games of the year",
        request_only=True,
        value={"name": "League 2026", "rule": {"rule": "best_games", "best": 20}},
    ),
    OpenApiExample(
        "Season",
        response_only=True,
        value={
            "slug": "spring-2026",
            "name": "Spring 2026",
            "rule": {"rule": "best", "best": 6, "place_points": [25, 20, 16], "cap": 120},
        },
    ),
]

TOURNAMENT_CLUB_PUT = [
    OpenApiExample(
        "Rated, in a season",
        value={"club": "haifa-joker", "season": "spring-2026", "rated": True},
    )
]

PLAYER_MEMBER_PUT = [OpenApiExample("Link", value={"member": 7})]

CLUB_LIST_GET = [OpenApiExample("Clubs", value=CLUB_SUMMARY_EXAMPLE, response_only=True)]

CLUB_LIST_POST = [
    OpenApiExample("New club", value={"name": "Haifa Joker"}, request_only=True),
    OpenApiExample("Club", value=CLUB_SUMMARY_EXAMPLE, response_only=True),
]

CLUB_ORGANISER_LIST_GET = [
    OpenApiExample("Organisers", value=CLUB_ORGANISER_EXAMPLE, response_only=True)
]

CLUB_ORGANISER_LIST_POST = [
    OpenApiExample("Add", value={"username": "carol"}, request_only=True),
    OpenApiExample("Organiser", value=CLUB_ORGANISER_EXAMPLE, response_only=True),
]


# --- divisions ----------------------------------------------------------------

DIVISION_EXAMPLE = {
    "slug": "juniors",
    "name": "Juniors ≤ 14",
    "order": 0,
    "prizes": ["Trophy and book voucher", "Book voucher", "Medal"],
    "players": [11, 14, 19],
}

DIVISION_LIST_GET = [OpenApiExample("Divisions", value=DIVISION_EXAMPLE, response_only=True)]

DIVISION_LIST_POST = [
    OpenApiExample(
        "Juniors",
        value={"name": "Juniors ≤ 14", "slug": "juniors", "prizes": ["Trophy"]},
        request_only=True,
    ),
    OpenApiExample("Added", value=DIVISION_EXAMPLE, response_only=True),
]

DIVISION_DETAIL_GET = [OpenApiExample("Division", value=DIVISION_EXAMPLE, response_only=True)]

DIVISION_DETAIL_PATCH = [OpenApiExample("Rename", value={"name": "Under 14"}, request_only=True)]

DIVISION_DETAIL_DELETE = [
    OpenApiExample(
        "Limited stage",
        value={"division": ["stage 2 (Juniors final) is limited to Juniors: change it first."]},
        response_only=True,
        status_codes=["409"],
    ),
]


# --- players ------------------------------------------------------------------

PLAYER_EXAMPLE = {
    "id": 11,
    "number": 1,
    "name": "Ada Peretz",
    "club": "Haifa RC",
    "rating": 1620,
    "status": "active",
    "fixed_table": None,
    "joined_round": None,
    "member": 7,
    "member_name": "Ada Peretz",
    "divisions": ["juniors"],
    "already_qualified": False,
}

PLAYER_LIST_GET = [
    OpenApiExample(
        "A page",
        value=PLAYER_EXAMPLE,
        response_only=True,
    )
]

PLAYER_LIST_POST = [
    OpenApiExample(
        "Register",
        value={"name": "Ada Peretz", "club": "Haifa RC", "rating": 1620, "member": 7},
        request_only=True,
    ),
    OpenApiExample("Registered", value=PLAYER_EXAMPLE, response_only=True),
]

PLAYER_DETAIL_GET = [OpenApiExample("Player", value=PLAYER_EXAMPLE, response_only=True)]

PLAYER_DETAIL_PATCH = [
    OpenApiExample("Withdraw", value={"status": "withdrawn"}, request_only=True),
    OpenApiExample(
        "Correct the name and number",
        value={"name": "Ada Peretz", "number": 12},
        request_only=True,
    ),
    OpenApiExample(
        "Number taken",
        value={"number": ["#12 is Dov's start number already; choose a free one."]},
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "Withdrawn", value={**PLAYER_EXAMPLE, "status": "withdrawn"}, response_only=True
    ),
]

PLAYER_DETAIL_DELETE = [
    OpenApiExample(
        "Seated",
        value={"player": ["#4 Ada has played or been seated in round 1; withdraw instead."]},
        response_only=True,
        status_codes=["409"],
    ),
]

PLAYER_IMPORT_POST = [
    OpenApiExample("Imported", value=PLAYER_EXAMPLE, response_only=True),
    OpenApiExample(
        "Bad line",
        value={"file": ["line 4: rating 'abc' must be a whole number."]},
        response_only=True,
        status_codes=["400"],
    ),
]


# --- staff --------------------------------------------------------------------

STAFF_EXAMPLE = {"id": 7, "username": "bob", "role": "scorekeeper"}

INVITATION_EXAMPLE = {
    "id": 3,
    "role": "scorekeeper",
    "state": "open",
    "link": "https://tab.example.org/invitations/3:1vDq2x:Hk3...ZQ/",
    "created_at": "2026-12-01T18:00:00Z",
    "expires_at": "2026-12-08T18:00:00Z",
    "used_by": None,
    "username": "",
}

LAST_ORGANISER = {"role": ["alice is the only organiser; make someone else organiser first."]}

STAFF_GET = [OpenApiExample("Staff", value=STAFF_EXAMPLE, response_only=True)]

STAFF_POST = [
    OpenApiExample(
        "Scorekeeper", value={"username": "bob", "role": "scorekeeper"}, request_only=True
    ),
    OpenApiExample(
        "Invited",
        value={**INVITATION_EXAMPLE, "username": "bob"},
        response_only=True,
    ),
]

STAFF_MEMBER_PATCH = [
    OpenApiExample("Promote", value={"role": "organiser"}, request_only=True),
    OpenApiExample(
        "Last organiser", value=LAST_ORGANISER, response_only=True, status_codes=["409"]
    ),
]

STAFF_MEMBER_DELETE = [
    OpenApiExample(
        "Last organiser",
        value={
            "staff": [
                "alice is the only organiser; make someone else organiser before removing them."
            ]
        },
        response_only=True,
        status_codes=["409"],
    )
]

STAFF_ACCOUNT_POST = [
    OpenApiExample(
        "Scorekeeper",
        value={"username": "table4", "role": "scorekeeper"},
        request_only=True,
    ),
    OpenApiExample(
        "Created",
        value={**STAFF_EXAMPLE, "username": "table4", "password": "kT7pwQ2mHc9xZa"},
        response_only=True,
    ),
    OpenApiExample(
        "Refused",
        value={"password": ["This password is too short. It must contain at least 8 characters."]},
        response_only=True,
        status_codes=["400"],
    ),
]

INVITATION_LIST_GET = [OpenApiExample("Invitations", value=INVITATION_EXAMPLE, response_only=True)]

INVITATION_LIST_POST = [
    OpenApiExample("Scorekeeper", value={"role": "scorekeeper"}, request_only=True),
    OpenApiExample("Made", value=INVITATION_EXAMPLE, response_only=True),
]

INVITATION_DELETE = [
    OpenApiExample(
        "Revoked",
        value={**INVITATION_EXAMPLE, "state": "revoked", "link": None},
        response_only=True,
    )
]


# --- tournaments --------------------------------------------------------------

TOURNAMENT_EXAMPLE = {
    "name": "Club Open",
    "slug": "club-open",
    "starts_on": "2026-12-05",
    "preset": "standard",
    # The standard preset itself, so the example never drifts from the rules.
    "rules": PRESETS["standard"].as_dict(),
    "ranking": ["games_won", "score"],
    "table_size": 4,
    "games_per_table": None,
    "rounds_planned": 4,
    "target_score": None,
    "target_games_cap": None,
    "results_need_confirmation": False,
    "club_avoidance": "weighted",
    "public": True,
    "status": "upcoming",
    "results_version": 0,
    "missed_rounds": "not_played",
    "forfeit_rule": "shared",
    "credit_substitute_games": False,
    "qualify_slots": None,
    "qualify_event": "",
    "qualify_stage": None,
}

TOURNAMENT_LIST_GET = [
    OpenApiExample(
        "A page",
        value=TOURNAMENT_EXAMPLE,
        response_only=True,
    )
]

TOURNAMENT_LIST_POST = [
    OpenApiExample(
        "Create",
        value={
            "name": "Club Open",
            "slug": "club-open",
            "starts_on": "2026-12-05",
            "preset": "standard",
            "rules": {"turn_seconds": 120},
            "ranking": ["games_won", "score"],
            "table_size": 4,
            "games_per_table": None,
            "rounds_planned": 4,
            "target_score": None,
            "results_need_confirmation": False,
            "public": True,
        },
        request_only=True,
    ),
    OpenApiExample("Created", value=TOURNAMENT_EXAMPLE, response_only=True),
]

TOURNAMENT_DETAIL_GET = [OpenApiExample("Tournament", value=TOURNAMENT_EXAMPLE, response_only=True)]

TOURNAMENT_DETAIL_PATCH = [
    OpenApiExample(
        "Publish and start",
        value={"public": True, "status": "running", "rules": {"turn_seconds": 60}},
        request_only=True,
    ),
    OpenApiExample("Changed", value=TOURNAMENT_EXAMPLE, response_only=True),
]

TOURNAMENT_DETAIL_DELETE = [
    OpenApiExample(
        "Has results",
        value={"non_field_errors": ["a tournament with entered results cannot be deleted."]},
        response_only=True,
        status_codes=["400"],
    )
]


# --- webhooks -----------------------------------------------------------------

HOOK_EXAMPLE = {
    "id": 2,
    "url": "https://league.example.org/rummitab-hook",
    "events": ["result.confirmed", "standings.updated"],
    "active": True,
    "created_at": "2026-12-01T18:00:00Z",
    "created_by": "alice",
}

DELIVERY_EXAMPLE = {
    "id": 41,
    "event": "round.opened",
    "status": "delivered",
    "attempts": 2,
    "last_status_code": 200,
    "last_error": "",
    "created_at": "2026-12-05T19:02:11Z",
    "delivered_at": "2026-12-05T19:02:13Z",
    "payload": {
        "tournament": {"slug": "club-open", "name": "Club Open"},
        "round": {"number": 2, "method": "swiss", "opened_at": "2026-12-05T19:02:11Z"},
        "tables": [{"number": 1, "seats": [{"seat": 1, "player": {"number": 7, "name": "Ada"}}]}],
    },
    "sent_body": '{"delivery":41,"event":"round.opened","round":{"method":"swiss",...}',
    "sent_signature": "t=1796497333,v1=5f0c3b0e9d1c...e2a4",
}

BAD_URL = {"url": ["must be an http:// or https:// address with a host."]}

WEBHOOK_LIST_GET = [OpenApiExample("Hooks", value=HOOK_EXAMPLE, response_only=True)]

WEBHOOK_LIST_POST = [
    OpenApiExample(
        "Results and standings",
        value={
            "url": "https://league.example.org/rummitab-hook",
            "events": ["result.confirmed", "standings.updated"],
        },
        request_only=True,
    ),
    OpenApiExample(
        "Added",
        value={**HOOK_EXAMPLE, "secret": "9f2c4e...b71a"},
        response_only=True,
        status_codes=["201"],
    ),
    OpenApiExample("Bad address", value=BAD_URL, response_only=True, status_codes=["400"]),
]

WEBHOOK_DETAIL_PATCH = [
    OpenApiExample("Pause", value={"active": False}, request_only=True),
    OpenApiExample("Changed", value={**HOOK_EXAMPLE, "active": False}, response_only=True),
]

WEBHOOK_DETAIL_DELETE = [
    OpenApiExample(
        "Not an organiser",
        value={"detail": "Only the tournament's organisers may do this."},
        response_only=True,
        status_codes=["403"],
    )
]

WEBHOOK_DELIVERIES_GET = [OpenApiExample("Log", value=DELIVERY_EXAMPLE, response_only=True)]
