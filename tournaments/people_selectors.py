"""Reads of people: finding an existing person to link when registering a player.

Terms: person, privacy (`tournaments.person_model`). A search answers every reader the
same people; what is shown of each is the caller's (`tournaments.services.people`).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from .models import Person

# A search lists at most this many people: a registration desk types a few letters more.
SEARCH_LIMIT = 20


def people_found(query: str) -> QuerySet[Person]:
    """People whose name contains `query` (any case) or whose federation id is `query`,
    merged duplicates left out, by name."""
    query = query.strip()
    people = Person.objects.filter(merged_into__isnull=True).prefetch_related("memberships__club")
    if not query:
        return people.none()
    return people.filter(Q(name__icontains=query) | Q(federation_id=query)).order_by("name", "pk")[
        :SEARCH_LIMIT
    ]
