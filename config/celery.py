"""The Celery app. Broker from `CELERY_BROKER_URL` or `REDIS_URL`; with neither set, tasks
run eagerly in-process (the caller enqueues them on commit, so they still see committed
data). Worker: `celery -A config worker -B`.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rummitab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
