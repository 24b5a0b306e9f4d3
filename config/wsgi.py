"""WSGI entry point for gunicorn: `gunicorn config.wsgi`.

Every server imports it in each process that answers requests (gunicorn's workers,
`runserver`, `make lan`), so the timed SQLite backups start here; only one process takes
them (tournaments.backups, "server lock"). Nothing starts on PostgreSQL.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from tournaments.backups import start_backup_thread  # noqa: E402  # needs Django set up

start_backup_thread()
