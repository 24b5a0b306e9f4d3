"""Create the local `admin`/`admin` superuser for `make run` — refused in production."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create a local admin/admin superuser (only while DEBUG is on)."
    # No system checks: they import every URL and view (seconds of `make run`'s first
    # start) to check nothing this command uses; `runserver` runs them all next.
    requires_system_checks: list[str] = []

    def handle(self, *args, **options):
        # A known password is only acceptable on a developer's own machine.
        if not settings.DEBUG:
            raise CommandError("local_admin runs only with DEBUG on; use createsuperuser.")
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username="admin", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password("admin")
            user.save()
            self.stdout.write("Created superuser admin / admin (local only).")
        else:
            self.stdout.write("Superuser admin exists.")
