"""The site's secret key kept in a file beside the data, for a laptop that has no
`SECRET_KEY` in its environment (`make run`, `make lan`).

Terms:
* key file — `SECRET_KEY_FILE` (default `<DATA_DIR>/secret_key`): one line, a random
  key of 50 characters made by Django's `get_random_secret_key()` on the first start,
  readable by its owner only (mode 0600; Windows has no such mode and keeps the user's
  folder permissions). It is read again on every later start, so table links printed
  before a restart keep working; it is never printed and never in the repository
  (.gitignore). Losing it ends every printed table link, session and API token.
* first start — two processes may start at once (`make run`'s migrate and its server,
  the reloader's two processes): the key is written to a temporary file of its own and
  linked into place, which fails if another process was first; the loser reads the
  winner's key. A half-written key file can therefore never be read.

Imported by config.settings only: it needs nothing of Django but its key generator.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

# Django asks for at least 50 characters and 5 distinct ones (`check --deploy`, W009).
MIN_LENGTH = 50


def _read(path: Path) -> str:
    key = path.read_text(encoding="ascii").strip()
    if len(key) < MIN_LENGTH:
        raise ImproperlyConfigured(
            f"The secret key file {path} holds no key of {MIN_LENGTH} characters or more: "
            "restore it from a backup, or delete it to make a new one (printed table links "
            "then stop working)."
        )
    return key


def _create(path: Path) -> None:
    """Write a new key to `path`, unless another process already did."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # A name of its own for each caller (mkstemp: mode 0600, never an existing file).
    descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    temporary = Path(name)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(get_random_secret_key() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process was first: keep its key
        except OSError:
            # A file system without hard links (a FAT-formatted stick): no guard against
            # a second process starting in the same instant, but still never half a key.
            if not path.exists():
                os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def secret_key_from_file(path: Path) -> str:
    """The key kept in `path`, made on the first call."""
    if not path.exists():
        _create(path)
    return _read(path)
