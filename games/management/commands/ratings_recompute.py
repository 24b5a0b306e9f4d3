"""`manage.py ratings_recompute [--club SLUG]`: rate every game of a club's rated
tournaments again from scratch (all clubs without --club). It gives the same numbers as the
updates the workers make after each result; use it after changing which tournaments are
rated, or to check that claim on real data."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from games.services.ratings import ratings_update
from tournaments.models import Club


class Command(BaseCommand):
    help = "Recompute club members' ratings from scratch."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's slug (default: every club)")

    def handle(self, *args, club=None, **options):
        clubs = Club.objects.order_by("slug")
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"no club with slug {club!r}")
        for found in clubs:
            started = time.perf_counter()
            games = ratings_update(club_id=found.pk, from_scratch=True)
            seconds = time.perf_counter() - started
            self.stdout.write(f"{found.slug}: {games} games rated in {seconds:.2f} s")
