"""The games tests' own fixture: `league`, a club with a season of two played, rated
evenings (the page and API fixtures every app shares are in tests/conftest.py)."""

import pytest

from games.services.ratings import ratings_update
from tests.games.helpers import evening
from tournaments.services.clubs import club_create, member_create, season_create


@pytest.fixture
def league(alice):
    """A club of 8 members with a season (best 2 of 3) of two played, rated evenings."""
    joker = club_create(by=alice, name="Haifa Joker")
    for n in range(1, 9):
        member_create(club=joker, by=alice, name=f"Player {n}")
    season = season_create(club=joker, by=alice, name="Spring", rule={"rule": "best", "best": 2})
    for n in (1, 2):
        evening(alice, joker, season, f"Evening {n}")
    ratings_update(club_id=joker.pk)
    return season
