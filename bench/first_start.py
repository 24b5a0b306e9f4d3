"""Benchmark: a fresh clone to the site answering, the way a club's laptop first starts it.

    python3 bench/first_start.py            # warm cache: the packages were downloaded before
    python3 bench/first_start.py --cold     # cold cache: uv's and pip's caches empty
    python3 bench/first_start.py --ref main --cold --port 8010

Clones the repository (the commit `--ref` names, HEAD by default) into a temporary folder,
runs `make run` there (with `PORT=<port>`) and polls http://127.0.0.1:<port>/ until it
answers 200. Prints, in seconds from the start, when each phase of `make run` began (from
the commands make echoes) and when the site answered, then stops the server and removes
the clone. Needs only Python's standard library, git and make (like a first start).

*Cold* points UV_CACHE_DIR and PIP_CACHE_DIR at a new empty folder, so every package is
downloaded; *warm* leaves the caches where they are (run it once before to fill them).
`make run` uses SQLite (DATABASE_URL is removed from the environment). A clone whose
`run` target ignores PORT serves on 8000: pass `--port 8000` then.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The first command of each phase, as make echoes it: the phase begins when it is printed.
PHASES = [
    ("install", "venv"),
    ("migrate", "manage.py migrate"),
    ("seed_demo", "manage.py seed_demo"),
    ("local_admin", "manage.py local_admin"),
    ("server start", "manage.py runserver"),
]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def run_make(clone: Path, env: dict, port: int, timeout: int, log_path: Path):
    """Run `make run` in the clone; return when each phase began and when the site answered
    (None if it never did), in seconds from the start."""
    url = f"http://127.0.0.1:{port}/"
    log = log_path.open("w")
    start = time.monotonic()
    seen: dict[str, float] = {}
    make = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: stopped whole at the end
    )

    def read() -> None:
        for line in make.stdout:
            log.write(line)
            for phase, marker in PHASES:
                if phase not in seen and marker in line:
                    seen[phase] = time.monotonic() - start

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    answered = None
    try:
        while time.monotonic() - start < timeout and make.poll() is None:
            if answers(url):
                answered = time.monotonic() - start
                break
            time.sleep(0.5)
    finally:
        os.killpg(make.pid, signal.SIGTERM)
        make.wait(timeout=30)
        reader.join(timeout=5)
        log.close()

    return seen, answered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cold", action="store_true", help="empty package caches")
    parser.add_argument("--ref", default="HEAD", help="commit or branch to clone")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--timeout", type=int, default=1800, help="give up after (s)")
    parser.add_argument("--keep", action="store_true", help="keep the clone and its log")
    args = parser.parse_args()

    url = f"http://127.0.0.1:{args.port}/"
    if answers(url):
        sys.exit(f"something already answers on {url}: pick another --port")
    work = Path(tempfile.mkdtemp(prefix="rummitab-first-start-"))
    clone = work / "rummitab"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "VIRTUAL_ENV"}}
    if args.cold:
        env["UV_CACHE_DIR"] = env["PIP_CACHE_DIR"] = str(work / "cache")
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", args.ref], check=True, capture_output=True, text=True
    ).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", commit], check=True)

    seen, answered = run_make(clone, env, args.port, args.timeout, work / "make.log")

    print(f"fresh clone of {args.ref}, {'cold' if args.cold else 'warm'} package cache")
    for phase, _ in PHASES:
        if phase in seen:
            print(f"  {phase:<13} began at {seen[phase]:7.1f} s")
    if answered is None:
        print(f"  the site did not answer (log: {work / 'make.log'})")
        return 1
    print(f"  site answered at {answered:7.1f} s   (load average {os.getloadavg()[0]:.1f})")
    if args.keep:
        print(f"  clone and log kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
