"""`manage.py restore_backup <file> [--key-file KEY] [--force]`: make a backup the site's
SQLite database, and its key the site's key file (tournaments.backups.backup_restore).

<file> is a kept backup (BACKUP_DIR/rummitab-….sqlite3; its key is the `secret_key`
beside it) or a zip downloaded from the Backups page (the key inside). Run it with the
server stopped, then start the server again (`make lan` migrates the restored database if
the code is newer than the backup).
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from tournaments.backups import BackupError, backup_restore, database_file


class Command(BaseCommand):
    help = "Restore a backup (a kept .sqlite3 or a downloaded .zip) as the SQLite database."
    # The checks would open the database that is about to be replaced.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the backup: .sqlite3 or .zip")
        parser.add_argument(
            "--key-file",
            type=Path,
            help="the secret_key file that signed the printed table links (default: the "
            "one in the zip, or beside the .sqlite3)",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace a database that already holds accounts or tournaments (it is "
            "kept beside, renamed .replaced-<time>)",
        )

    def handle(self, *args, file: Path, key_file: Path | None, force: bool, **options):
        target = database_file()
        connections.close_all()
        try:
            restored = backup_restore(file, key_file=key_file, force=force, target=target)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored {file} as {restored.database}.")
        if restored.key_file is not None:
            self.stdout.write(f"Key file: {restored.key_file} (printed table links keep working).")
        else:
            self.stdout.write(
                self.style.WARNING(
                    "No key file came with this backup: printed table links work only if "
                    "this site signs with the same SECRET_KEY as the old one. Give it with "
                    "--key-file, or print the sheets again."
                )
            )
        for path in restored.moved_aside:
            self.stdout.write(f"Kept what it replaced: {path}")
        self.stdout.write("Start the server again (make lan).")
