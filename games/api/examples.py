"""Examples of the games API's answers and requests, as the API reference shows them
(drf-spectacular `OpenApiExample` values): one game with its result and penalties, a
round and its previewed draw, the standings, a stage with its rows and its cut, an
event file, and what a club reads (its rating list, a member's history, a season's
standings). tests/test_openapi_examples.py checks them against the schema.
"""

from __future__ import annotations

RESULT_EXAMPLE = {
    "version": 1,
    "status": "confirmed",
    "end": "rummikub",
    "racks": [
        {
            "player": 11,
            "tiles": "",
            "points": 0,
            "tile_count": 0,
            "jokers": 0,
            "no_meld": None,
            "charge": 0,
            "score": 108,
            "winner": True,
            "substitute": "",
            "forfeit": False,
        },
        {
            "player": 12,
            "tiles": "2 B10 R4",
            "points": 16,
            "tile_count": 3,
            "jokers": 0,
            "no_meld": None,
            "charge": 16,
            "score": -16,
            "winner": False,
            "substitute": "",
            "forfeit": False,
        },
        {
            "player": 13,
            "tiles": "7 J",
            "points": 37,
            "tile_count": 2,
            "jokers": 1,
            "no_meld": None,
            "charge": 37,
            "score": -37,
            "winner": False,
            "substitute": "",
            "forfeit": False,
        },
        {
            "player": 14,
            "tiles": None,
            "points": 23,
            "tile_count": 4,
            "jokers": 0,
            "no_meld": "could_not",
            "charge": 23,
            "score": -23,
            "winner": False,
            "substitute": "",
            "forfeit": False,
        },
    ],
    "submitted_by": "bob",
    "submitted_at": "2026-12-05T14:03:12.511Z",
    "confirmed_by": "bob",
    "confirmed_at": "2026-12-05T14:03:12.511Z",
}

RESULT_REQUEST_EXAMPLE = {
    "based_on": 0,
    "end": "rummikub",
    "winner": 11,
    "racks": [
        {"player": 11, "tiles": ""},
        {"player": 12, "tiles": "R4 B10 K2"},
        {"player": 13, "tiles": "J 7"},
        {"player": 14, "points": 23, "tile_count": 4, "jokers": 0, "no_meld": "could_not"},
    ],
}

PENALTY_EXAMPLE = {
    "id": 3,
    "player": 12,
    "kind": "timeout",
    "tiles_drawn": 1,
    "points": 0,
    "note": "turn ran past two minutes",
    "recorded_by": "bob",
    "recorded_at": "2026-12-05T13:51:40.102Z",
    "voided": False,
}

GAME_EXAMPLE = {
    "id": 31,
    "tournament": "club-open",
    "round": 1,
    "table": 1,
    "number": 1,
    "starter": 1,
    "players": [
        {"position": n, "player": 10 + n, "number": n, "name": f"Player {n}", "club": ""}
        for n in range(1, 5)
    ],
    "result": RESULT_EXAMPLE,
    "penalties": [PENALTY_EXAMPLE],
    "extensions": [{"player": 13, "used": 1}],
}

DRAW_EXAMPLE = {
    "number": 2,
    "method": "random",
    "seed": 91827,
    "tables": [
        {
            "number": 1,
            "seats": [{"position": n, "player": p} for n, p in enumerate([11, 15, 19, 23], 1)],
            "games": [{"number": n, "starter": n} for n in range(1, 5)],
        },
        {
            "number": 2,
            "seats": [{"position": n, "player": p} for n, p in enumerate([12, 16, 20], 1)],
            "games": [{"number": n, "starter": n} for n in range(1, 4)],
        },
    ],
    "quality": {"repeat_pairs": 0, "max_meetings": 1, "starter_balance": 1, "same_club_pairs": 0},
    "quality_words": [
        "Nobody meets an earlier opponent again.",
        "No two players of the same club share a table.",
        "Starts are as even as they can be (most and fewest starts differ by at most 1).",
    ],
    "table_sizes": "1 table of 4 and 1 table of 3; tables of 3 play 3 games.",
    "uneven": True,
    "missing_results": [
        {
            "round": 1,
            "missing": 3,
            "missing_tables": [2],
            "unconfirmed": 0,
            "unconfirmed_tables": [],
            "message": "round 1: 3 games missing at table 2",
        }
    ],
    "open_anyway_needed": True,
    "commit": {
        "method": "random",
        "seed": 91827,
        "number": 2,
        "tables": [[11, 15, 19, 23], [12, 16, 20]],
        "open_anyway": True,
    },
    "stage": None,
    "stage_words": "",
}

ROUND_EXAMPLE = {
    "number": 1,
    "method": "manual",
    "stage": None,
    "tables": [
        {
            "id": 5,
            "number": 1,
            "seats": [{"position": n, "player": 10 + n} for n in range(1, 5)],
            "games": [{"id": 30 + n, "number": n, "starter": n} for n in range(1, 5)],
        },
        {
            "id": 6,
            "number": 2,
            "seats": [{"position": n, "player": 14 + n} for n in range(1, 4)],
            "games": [{"id": 34 + n, "number": n, "starter": n} for n in range(1, 4)],
        },
    ],
    "quality": {"repeat_pairs": 0, "max_meetings": 1, "starter_balance": 1},
}

STAGE_EXAMPLE = {
    "number": 2,
    "name": "Final",
    "kind": "final",
    "status": "upcoming",
    "ranking": ["score", "games_won", "lot"],
    "carry_over": "all",
    "cut_top": 4,
    "cut_min_score": None,
    "cut_ties": "lot",
    "reseat_every_game": False,
    "race_target": None,
    "race_cap": None,
    "rounds_planned": 3,
    "side_of": None,
    "division": None,
    "source": 1,
    "entry": "top",
    "rank_from": None,
    "rank_to": None,
    "table_top": None,
    "best_losers": 0,
    "carry_rounding": "toward_zero",
    "games_per_table": None,
    "seating": "",
}

ROW_EXAMPLE = {
    "rank": 1,
    "player": {"id": 11, "number": 1, "name": "Ada Peretz", "status": "active"},
    "carried": 40,
    "metrics": {"score": 95, "games_won": 3, "games_played": 5},
    "race_wins": None,
}

CUT_EXAMPLE = {
    "stage": 1,
    "next_stage": 2,
    "entrants": [{"id": 11, "number": 1, "name": "Ada Peretz", "status": "active"}],
    "eliminated": [{"id": 12, "number": 2, "name": "Ben Cohen", "status": "active"}],
    "carried": {"11": 40},
    "tie": "",
    "feeds": [
        {
            "stage": 2,
            "entry": "top",
            "entrants": [11],
            "table_winners": [],
            "carried": {"11": 40},
            "tie": "",
        }
    ],
    "committed": False,
    "commit": {"expected_entrants": [11]},
}

STANDINGS_EXAMPLE = {
    "results_version": 12,
    "computed_version": 12,
    "stale": False,
    "computed_at": "2026-12-05T15:20:01.004Z",
    "ranking": ["games_won", "score"],
    "rows": [
        {
            "rank": 1,
            "player": {
                "id": 11,
                "number": 1,
                "name": "Ada Peretz",
                "club": "Haifa RC",
                "status": "active",
            },
            "metrics": {
                "score": 120,
                "games_won": 3,
                "games_played": 4,
                "rummikubs": 2,
                "rack_total": 14,
                "table_wins": 1,
                "opponents_score": -85,
                "best_game": 61,
                "penalties": 0,
                "lot": 91847362514,
            },
        }
    ],
    "count": 1,
    "page": 1,
    "pages": 1,
}

EVENT_FILE_EXAMPLE = {
    "format": "rummitab-event-file",
    "format_version": 1,
    "exported_at": "2026-12-05T18:02:11Z",
    "generator": "Rummitab",
    "tournament": {
        "slug": "club-open",
        "name": "Club Open",
        "status": "finished",
        "rules": {"preset": "standard", "joker_penalty": 30, "turn_seconds": 60},
        "ranking": ["games_won", "score"],
        "table_size": 4,
        "games_per_table": None,
        "rounds_planned": 4,
        "target_score": None,
        "target_games_cap": None,
        "results_need_confirmation": False,
        "club_avoidance": "weighted",
        "public": True,
        "missed_rounds": "not_played",
        "forfeit_rule": "shared",
        "credit_substitute_games": False,
        "starts_on": "2026-12-05",
        "rated": False,
        "first_result_at": "2026-12-05T14:10:00Z",
        "club": None,
    },
    "players": [
        {
            "number": 1,
            "name": "Ada Peretz",
            "club": "Haifa RC",
            "rating": None,
            "status": "active",
            "member": None,
            "fixed_table": None,
            "joined_round": None,
            "registered_at": "2026-12-01T10:00:00Z",
            "lot": 91847362514,
        }
    ],
    "absences": [],
    "stages": [],
    "rounds": [
        {
            "number": 1,
            "stage": None,
            "method": "random",
            "seed": 42,
            "quality": {"repeat_pairs": 0},
            "created_at": "2026-12-05T14:00:00Z",
            "ends_at": None,
            "tables": [
                {
                    "number": 1,
                    "seats": [{"position": 1, "player": 1, "absent_from": None, "absence": ""}],
                    "games": [
                        {
                            "number": 1,
                            "starter_position": 1,
                            "results": [
                                {
                                    "version": 1,
                                    "end": "rummikub",
                                    "status": "confirmed",
                                    "submitted_by": "bob",
                                    "submitted_at": "2026-12-05T14:10:00Z",
                                    "confirmed_by": "bob",
                                    "confirmed_at": "2026-12-05T14:10:00Z",
                                    "racks": [
                                        {
                                            "player": 1,
                                            "tiles": "",
                                            "points": 0,
                                            "tile_count": 0,
                                            "jokers": 0,
                                            "no_meld": None,
                                            "charge": 0,
                                            "score": 61,
                                            "winner": True,
                                            "substitute": "",
                                            "forfeit": False,
                                        }
                                    ],
                                }
                            ],
                            "penalties": [],
                            "extensions": [],
                        }
                    ],
                }
            ],
        }
    ],
    "standings": {
        "results_version": 12,
        "ranking": ["games_won", "score"],
        "rows": [
            {
                "rank": 1,
                "player": 1,
                "name": "Ada Peretz",
                "status": "active",
                "metrics": {"games_won": 1, "score": 61, "games_played": 1, "lot": 91847362514},
            }
        ],
    },
}


CLUB_EXAMPLE = {
    "slug": "haifa-joker",
    "name": "Haifa Joker",
    "members": 12,
    "seasons": [
        {
            "slug": "spring-2026",
            "name": "Spring 2026",
            "rule": {
                "rule": "best",
                "best": 2,
                "place_points": [25, 20, 16],
                "cap": None,
            },
        }
    ],
    "ranking": [
        {
            "rank": 1,
            "member": {"id": 7, "name": "Ada Peretz"},
            "rating": 1376,
            "games": 24,
        }
    ],
}

MEMBER_DETAIL_EXAMPLE = {
    "id": 7,
    "name": "Ada Peretz",
    "code": "117",
    "joined_on": None,
    "rating": 1032,
    "events": [{"tournament": "spring-1", "player": 4, "rank": 2, "score": 57}],
    "history": [
        {
            "tournament": "spring-1",
            "round": 1,
            "table": 2,
            "game": 1,
            "rating": 1032,
            "mu": 27.9,
            "sigma": 8.2,
        }
    ],
}

SEASON_STANDINGS_EXAMPLE = {
    "season": {
        "slug": "spring-2026",
        "name": "Spring 2026",
        "rule": {
            "rule": "sum",
            "best": None,
            "place_points": [25, 20, 16],
            "cap": None,
        },
    },
    "version": 3,
    "computed_at": "2026-03-21T22:10:00Z",
    "events": ["spring-1", "spring-2"],
    "rows": [
        {
            "rank": 1,
            "member": {"id": 7, "name": "Ada Peretz"},
            "total": 88,
            "events": 2,
            "contributions": [
                {"event": "spring-1", "value": 57, "counted": True},
                {"event": "spring-2", "value": 31, "counted": True},
            ],
        }
    ],
}
