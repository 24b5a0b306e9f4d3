"""Two requests that insert the same unique key at the same moment, on real PostgreSQL
and real threads: the loser is told which field clashed (never a 500, never two rows)."""

from __future__ import annotations

import pytest

from scoring.errors import Conflict, RuleError
from tests.threads import at_once
from tournaments.models import StaffMember, Tournament
from tournaments.services.tournaments import staff_add, tournament_create

TRIALS = 10


@pytest.mark.django_db(transaction=True)
def test_the_same_slug_at_once_creates_one_tournament(postgres, alice, bob):
    for trial in range(TRIALS):
        slug = f"club-open-{trial}"
        outcomes = at_once(
            *[
                lambda by=by, slug=slug: tournament_create(by=by, name="Club Open", slug=slug)
                for by in (alice, bob, alice)
            ]
        )
        created = [o for o in outcomes if isinstance(o, Tournament)]
        refused = [o for o in outcomes if isinstance(o, RuleError)]
        assert len(created) == 1, f"trial {trial}: {outcomes}"
        assert len(refused) == 2, f"trial {trial}: {outcomes}"
        assert all(
            error.path == ("slug",) and "already exists" in error.message for error in refused
        )
        assert Tournament.objects.filter(slug=slug).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_name_at_once_gets_distinct_slugs(postgres, alice, bob):
    for trial in range(TRIALS):
        name = f"Spring Open {trial}"
        outcomes = at_once(
            *[
                lambda by=by, name=name: tournament_create(by=by, name=name)
                for by in (alice, bob, alice)
            ]
        )
        assert all(isinstance(o, Tournament) for o in outcomes), f"trial {trial}: {outcomes}"
        base = f"spring-open-{trial}"
        assert sorted(o.slug for o in outcomes) == sorted([base, f"{base}-2", f"{base}-3"])


@pytest.mark.django_db(transaction=True)
def test_the_same_staff_member_added_at_once_is_added_once(postgres, alice, django_user_model):
    for trial in range(TRIALS):
        tournament = tournament_create(by=alice, name=f"Staff Cup {trial}")
        user = django_user_model.objects.create_user(f"helper{trial}")
        outcomes = at_once(
            *[
                lambda t=tournament, u=user: staff_add(
                    tournament=t, by=alice, username=u.username, role="scorekeeper"
                )
                for _ in range(3)
            ]
        )
        added = [o for o in outcomes if isinstance(o, StaffMember)]
        conflicts = [o for o in outcomes if isinstance(o, Conflict)]
        assert added, f"trial {trial}: {outcomes}"
        assert len(added) + len(conflicts) == 3, f"trial {trial}: {outcomes}"
        assert all(c.path == ("username",) and user.username in c.message for c in conflicts)
        assert StaffMember.objects.filter(tournament=tournament, user=user).count() == 1
