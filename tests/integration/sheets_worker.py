"""The real Celery app, with two test hooks for the round's sheets job: the round is
divided into chunks of `RUMMITAB_SHEETS_CHUNK` sheets, and every chunk a pool process
makes is written down in the file `RUMMITAB_SHEETS_MARKS` (one JSON line: the process,
the chunk's index, when its task started and ended). Used only by tests/integration
(`celery -A tests.integration.sheets_worker worker`)."""

import json
import os
import time
from pathlib import Path

from celery.signals import task_postrun, task_prerun

from config.celery import app

__all__ = ["app"]

MARKS = Path(os.environ["RUMMITAB_SHEETS_MARKS"])
_started: dict[str, float] = {}


@task_prerun.connect
def _before(sender=None, task_id=None, **kwargs):
    # The task names of games.sheets, spelled out: importing it here would load the
    # models before the worker has set Django up.
    if sender is None:
        return
    if sender.name == "games.render_sheets_pdf":
        from games import sheets

        sheets.CHUNK_SHEETS = int(os.environ["RUMMITAB_SHEETS_CHUNK"])
    elif sender.name == "games.render_sheets_part":
        _started[task_id] = time.time()


@task_postrun.connect
def _after(sender=None, task_id=None, args=None, retval=None, **kwargs):
    if sender is None or sender.name != "games.render_sheets_part" or retval is not True:
        return  # only the deliveries that made their chunk
    start = _started.pop(task_id)
    mark = {"pid": os.getpid(), "index": args[1], "start": start, "end": time.time()}
    with MARKS.open("a") as marks:
        marks.write(json.dumps(mark) + "\n")
