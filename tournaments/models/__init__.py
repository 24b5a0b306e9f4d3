"""Tournaments, the people who run them, the players, and the rounds: one module per
feature, each defining its terms — clubs (clubs, members, seasons), tournaments,
staff (staff and invitations), people (one person across clubs), players (players and
divisions), rounds (rounds, stages,
check-in absences, seating plans), table_links, webhooks.

Django finds an app's models in its `models` module: every model is imported here.
"""

from .clubs import Club, ClubOrganiser, Member, Season
from .people import Person
from .players import Division, Player
from .rounds import Absence, Round, SeatingPlan, Stage, StageEntry
from .staff import StaffInvitation, StaffMember
from .table_links import TableLink
from .tournaments import Tournament
from .webhooks import Webhook, WebhookDelivery

__all__ = [
    "Absence",
    "Club",
    "ClubOrganiser",
    "Division",
    "Member",
    "Person",
    "Player",
    "Round",
    "Season",
    "SeatingPlan",
    "StaffInvitation",
    "StaffMember",
    "Stage",
    "StageEntry",
    "TableLink",
    "Tournament",
    "Webhook",
    "WebhookDelivery",
]
