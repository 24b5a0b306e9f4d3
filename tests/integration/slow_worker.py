"""The real Celery app, with one test hook: the first standings recompute a worker runs
announces its process id in a file and sleeps, so a test can kill that process mid-task.
Used only by tests/integration (`celery -A tests.integration.slow_worker worker`)."""

import os
import time
from pathlib import Path

from celery.signals import task_prerun

from config.celery import app

__all__ = ["app"]

MARKS = Path(os.environ["RUMMITAB_SLOW_MARKS"])


@task_prerun.connect
def _slow_first_recompute(sender=None, **kwargs):
    # tournaments.events.RECOMPUTE_TASK, spelled out: importing it here would load the
    # models before the worker has set Django up.
    if sender is None or sender.name != "games.recompute_standings":
        return
    with MARKS.open("a") as marks:
        marks.write(f"{os.getpid()}\n")
    if len(MARKS.read_text().split()) == 1:
        time.sleep(30)  # long enough to be killed in the middle
