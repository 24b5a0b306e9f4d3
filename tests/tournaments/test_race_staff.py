"""Staff changes at the same moment, on real PostgreSQL and real threads: an invitation
link sent three times at once makes one account; two organisers demoting each other at
once leave one organiser (the other, no organiser any more by then, is refused)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied

from scoring.errors import RuleError
from tests.threads import at_once
from tournaments.models import StaffMember
from tournaments.services.staff import staff_invitation_accept, staff_invite, staff_role_change
from tournaments.services.tournaments import staff_add, tournament_create

TRIALS = 5


@pytest.mark.django_db(transaction=True)
def test_one_link_sent_at_once_makes_one_account(postgres, alice):
    tournament = tournament_create(by=alice, name="Invite Cup")
    for trial in range(TRIALS):
        token = staff_invite(tournament=tournament, by=alice, role="scorekeeper").token
        outcomes = at_once(
            *[
                lambda name=f"t{trial}-{n}", token=token: staff_invitation_accept(
                    token=token, by=None, username=name, password="tile-rack-42"
                )
                for n in range(3)
            ]
        )
        joined = [o for o in outcomes if isinstance(o, StaffMember)]
        refused = [o for o in outcomes if isinstance(o, RuleError)]
        assert len(joined) == 1 and len(refused) == 2, f"trial {trial}: {outcomes}"
        assert all(e.path == ("token",) and "used already" in e.message for e in refused)
        made = get_user_model().objects.filter(username__startswith=f"t{trial}-")
        assert made.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_organisers_demoting_each_other_leave_one(postgres, alice, bob):
    for trial in range(TRIALS):
        tournament = tournament_create(by=alice, name=f"Two Heads {trial}")
        staff_add(tournament=tournament, by=alice, username="bob", role="organiser")
        rows = {m.user.username: m for m in tournament.staff.select_related("user")}
        outcomes = at_once(
            lambda r=rows: staff_role_change(member=r["bob"], by=alice, role="scorekeeper"),
            lambda r=rows: staff_role_change(member=r["alice"], by=bob, role="scorekeeper"),
        )
        changed = [o for o in outcomes if isinstance(o, StaffMember)]
        assert len(changed) == 1, f"trial {trial}: {outcomes}"
        # The loser is refused under the lock: it is no organiser any more (403).
        (loser,) = [o for o in outcomes if not isinstance(o, StaffMember)]
        assert isinstance(loser, PermissionDenied), loser
        assert tournament.staff.filter(role="organiser").count() == 1
