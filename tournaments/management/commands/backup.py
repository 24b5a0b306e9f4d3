"""`manage.py backup`: take a backup of the SQLite database now (tournaments.backups)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.backups import BackupError, backup_take, database_file


class Command(BaseCommand):
    help = (
        "Back up the SQLite database now into BACKUP_DIR (online and consistent: the server "
        "may be running). On PostgreSQL, use pg_dump."
    )

    def handle(self, *args, **options):
        if database_file() is None:
            raise CommandError(
                "The database is not an SQLite file: back PostgreSQL up with pg_dump."
            )
        try:
            backup = backup_take("manual")
        except BackupError as error:
            raise CommandError(str(error)) from error
        if backup is None:  # not SQLite: refused above
            raise CommandError("Nothing to back up.")
        self.stdout.write(f"Backup taken: {backup.path} ({backup.size:,} bytes)")
        key = settings.BACKUP_DIR / "secret_key"
        if key.is_file():
            self.stdout.write(f"The key that signs the table links is kept beside it: {key}")
