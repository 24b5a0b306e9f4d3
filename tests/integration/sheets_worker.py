"""The real Celery app, with two test hooks for the round's sheets job: the round is
divided into chunks of `RUMMITAB_SHEETS_CHUNK` sheets, and every chunk a pool process
lays out is written down in the file `RUMMITAB_SHEETS_MARKS` (one JSON line: the
process, the chunk's index, when its layout started and ended). Used only by
tests/integration (`celery -A tests.integration.sheets_worker worker`)."""

import json
import os
import time
from pathlib import Path

from celery.signals import task_prerun

from config.celery import app

__all__ = ["app"]

MARKS = Path(os.environ["RUMMITAB_SHEETS_MARKS"])


@task_prerun.connect
def _hooks(sender=None, **kwargs):
    # The task names of games.sheets, spelled out, and games.sheets imported only here:
    # importing it at the top would load the models before the worker has set Django up.
    if sender is None or not sender.name.startswith("games.render_sheets_"):
        return
    from games import sheets

    sheets.CHUNK_SHEETS = int(os.environ["RUMMITAB_SHEETS_CHUNK"])
    real = sheets._chunk_pdf
    if getattr(real, "marked", False):
        return

    def chunk_pdf(part):
        start = time.time()
        content = real(part)
        mark = {"pid": os.getpid(), "index": part.index, "start": start, "end": time.time()}
        with MARKS.open("a") as marks:
            marks.write(json.dumps(mark) + "\n")
        return content

    chunk_pdf.marked = True  # type: ignore[attr-defined]
    sheets._chunk_pdf = chunk_pdf
