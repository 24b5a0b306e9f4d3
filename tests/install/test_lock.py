"""The lock files are current with pyproject.toml (checked offline, with `packaging`).

Terms: a *lock* is one of requirements/*.txt, written by `make lock` (uv pip compile): every
package of the install pinned `name==version`, each with the hashes of its files, some
behind an environment marker (one version below Python 3.11.5, another from it on). A
*pin fits* a requirement when its version is in the requirement's range. The *run* lock
is what `make run` installs (pyproject's dependencies and its `docs` extra); the *dev*
lock is what `make test` installs (the same plus the `dev` extra), made with the run lock
as constraints so the two agree on every package they share. A failure here means: run
`make lock`, commit the locks.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LOCKS = ROOT / "requirements"


def read_lock(name: str) -> dict[str, list[tuple[Requirement, int]]]:
    """Each package's pins in a lock: (the `name==version ; marker` requirement, how many
    hashes it carries)."""
    text = (LOCKS / name).read_text()
    entries = re.sub(r"\\\n", " ", text).splitlines()  # join the continued lines
    pins: dict[str, list[tuple[Requirement, int]]] = {}
    for entry in entries:
        entry = entry.split("#", 1)[0].strip() if entry.lstrip().startswith("#") else entry
        if not entry.strip():
            continue
        hashes = re.findall(r"--hash=sha256:[0-9a-f]{64}", entry)
        requirement = Requirement(re.sub(r"\s--hash=\S+", "", entry).split(" #", 1)[0].strip())
        pins.setdefault(canonicalize_name(requirement.name), []).append((requirement, len(hashes)))
    return pins


def pinned_version(requirement: Requirement) -> Version:
    (spec,) = requirement.specifier
    assert spec.operator == "==", f"{requirement} is not an exact pin"
    return Version(spec.version)


def assert_fits(declared: list[str], pins: dict, lock: str) -> None:
    for line in declared:
        wanted = Requirement(line)
        name = canonicalize_name(wanted.name)
        assert name in pins, f"{wanted.name} (pyproject.toml) is not in {lock}: run `make lock`"
        for pin, _ in pins[name]:
            assert wanted.specifier.contains(pinned_version(pin), prereleases=True), (
                f"{lock} pins {pin}, outside pyproject.toml's {wanted}: run `make lock`"
            )


# `make run` builds the help pages, so the run lock holds the `docs` extra (MkDocs) too.
RUNTIME = PYPROJECT["project"]["dependencies"] + PYPROJECT["project"]["optional-dependencies"].get(
    "docs", []
)
DEV = PYPROJECT["project"]["optional-dependencies"]["dev"]


def test_every_runtime_dependency_is_pinned_in_range_in_the_run_lock():
    assert_fits(RUNTIME, read_lock("run.txt"), "requirements/run.txt")


def test_every_dependency_and_dev_tool_is_pinned_in_range_in_the_dev_lock():
    assert_fits(RUNTIME + DEV, read_lock("dev.txt"), "requirements/dev.txt")


def test_the_dev_lock_pins_the_runtime_packages_as_the_run_lock_does():
    run, dev = read_lock("run.txt"), read_lock("dev.txt")
    for name, pins in run.items():
        assert name in dev, f"{name} is in run.txt but not in dev.txt"
        # Versions only: a marker may widen in dev (tzdata: Windows only at run time, always
        # for a dev tool).
        versions = {pinned_version(p) for p, _ in pins}
        assert versions == {pinned_version(p) for p, _ in dev[name]}, name


def test_the_build_backend_is_pinned_in_range():
    assert_fits(PYPROJECT["build-system"]["requires"], read_lock("build.txt"), "build.txt")


@pytest.mark.parametrize("lock", ["run.txt", "dev.txt", "build.txt", "uv.txt"])
def test_every_pin_is_exact_and_carries_hashes(lock):
    pins = read_lock(lock)
    assert pins
    for entries in pins.values():
        for pin, hashes in entries:
            pinned_version(pin)
            assert hashes, f"{lock}: {pin} has no --hash (pip's --require-hashes refuses it)"


def test_the_makefile_bootstraps_the_uv_of_the_uv_lock():
    (uv,) = read_lock("uv.txt")["uv"]
    makefile = (ROOT / "Makefile").read_text()
    assert f"UV_VERSION := {pinned_version(uv[0])}\n" in makefile


def test_the_reader_sees_a_pin_outside_its_range():
    """The check itself: a lock pinning a version pyproject.toml excludes fails."""
    with pytest.raises(
        AssertionError, match=re.escape("outside pyproject.toml's Django<5.3,>=5.2")
    ):
        assert_fits(["Django>=5.2,<5.3"], {"django": [(Requirement("django==6.0"), 1)]}, "run.txt")
    with pytest.raises(AssertionError, match="is not in"):
        assert_fits(["waitress>=3.0"], {}, "run.txt")
