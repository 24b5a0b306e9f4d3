# Rummitab — the two commands of the README, and a few helpers.
# `make run`  installs into .venv, migrates, seeds the demo and starts the site.
# `make test` installs into .venv and runs every test, the linters and the layer contracts.
# `make lan`  serves the site to phones on the club's Wi-Fi (config/lan.py; PORT=8000,
#             LAN_ADDRESS=detected).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

PORT ?= 8000

.PHONY: run lan test install install-dev lock lint format messages bench clean docs screenshots

# --- Installing: the exact versions of the lock files (docs/operations/install.md) -------
# requirements/run.txt pins (with hashes) what the site needs and MkDocs, which builds its
# help pages (pyproject's `docs` extra): `make run` and `make lan` install only that
# ($(STAMP)). requirements/dev.txt pins the same plus the test and lint tools (the `dev`
# extra): `make test` ($(DEV_STAMP)). uv installs them, from PyPI; uv itself comes by pip
# from requirements/uv.txt (its version's hashes). `make INSTALLER=pip ...` installs the
# same locks with pip instead. `make lock` remakes the locks from pyproject.toml, keeping
# every pin that still fits; `make lock UPGRADE=1` moves every pin to the newest release
# its range allows.
INSTALLER ?= uv
UV_VERSION := 0.13.9
UV := $(BIN)/uv
STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
LOCK := $(UV) pip compile --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command 'make lock' $(if $(UPGRADE),--upgrade)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(UV): requirements/uv.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/uv.txt
	touch $(UV)

ifeq ($(INSTALLER),pip)
INSTALLS_WITH := $(BIN)/python
install_lock = $(BIN)/python -m pip install --quiet --require-hashes -r $(1) \
	&& $(BIN)/python -m pip install --quiet --no-deps -e .
else
INSTALLS_WITH := $(UV)
install_lock = $(UV) pip install --quiet --python $(BIN)/python --require-hashes \
	--build-constraints requirements/build.txt -r $(1) \
	&& $(UV) pip install --quiet --python $(BIN)/python --no-deps \
	--build-constraints requirements/build.txt -e .
endif

$(STAMP): requirements/run.txt requirements/build.txt pyproject.toml | $(INSTALLS_WITH)
	$(call install_lock,requirements/run.txt)
	touch $@

$(DEV_STAMP): requirements/dev.txt requirements/build.txt pyproject.toml | $(INSTALLS_WITH)
	$(call install_lock,requirements/dev.txt)
	touch $@

install: $(STAMP)
install-dev: $(DEV_STAMP)

lock: | $(UV)
	$(LOCK) pyproject.toml --extra docs -o requirements/run.txt
	$(LOCK) pyproject.toml --extra docs --extra dev -c requirements/run.txt -o requirements/dev.txt
	$(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))\
	['build-system']['requires'], sep='\n')" | $(LOCK) - -o requirements/build.txt
	echo 'uv==$(UV_VERSION)' | $(LOCK) - -o requirements/uv.txt
# -----------------------------------------------------------------------------------------

run: $(STAMP) docs
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py local_admin
	@echo ""
	@echo "Rummitab is starting on http://127.0.0.1:$(PORT)/"
	@echo "  site:     http://127.0.0.1:$(PORT)/"
	@echo "  API:      http://127.0.0.1:$(PORT)/api/v1/"
	@echo "  API docs: http://127.0.0.1:$(PORT)/api/v1/docs/"
	@echo "  help:     http://127.0.0.1:$(PORT)/docs/"
	@echo "  admin:    http://127.0.0.1:$(PORT)/admin/  (admin / admin, local only)"
	@echo ""
	PORT=$(PORT) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The club's Wi-Fi: a production server for one room (waitress, DEBUG off, the secret key
# kept in a file beside the database); binds 0.0.0.0, allows and prints the LAN address,
# and builds the sheets' QR codes from it. No demo data and no admin/admin account here.
lan: $(STAMP) docs
	$(BIN)/python manage.py migrate --no-input
	PORT=$(PORT) $(BIN)/python -m config.lan --port $(PORT)

# The suite runs in TEST_WORKERS processes at once (pytest-xdist; docs/design/tests.md):
# more than the cores, since many tests wait on a server, a worker or a child process.
# `--dist loadgroup` deals the tests out one by one, except those marked with one
# `xdist_group`, which one process runs together. `make test TEST_WORKERS=0`: one process.
TEST_WORKERS ?= 3
# Python keeps the bytecode it compiles (__pycache__, ignored by git) even where the
# environment says not to (PYTHONDONTWRITEBYTECODE, set in many CI images): the suite
# starts some hundred Python processes (the xdist workers, Celery workers, servers,
# `manage.py` and bench runs), and each one compiling Django and the rest from source
# again costs it about 3.5 s of CPU (docs/design/tests.md, "Bytecode").
test: export PYTHONDONTWRITEBYTECODE =
test: $(DEV_STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup
	$(MAKE) lint

# Style, complexity (ruff), the layer contracts (import-linter), the types of the engine and
# of every app (mypy, with the Django and DRF plugins: pyproject.toml's [tool.mypy]) and
# the templates' djLint rules ([tool.djlint] in pyproject.toml; their line lengths:
# tests/test_template_lines.py).
TYPED := scoring config games tournaments circuits
lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy $(TYPED)
	$(BIN)/djlint --lint templates
	$(MKDOCS) build --strict --quiet

# The documentation (docs/, mkdocs.yml) built into build/docs/, which the site serves at
# /docs/ (config/docs_site.py). `make lint` builds it strictly: a broken link fails.
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs
docs: $(STAMP)
	$(MKDOCS) build --quiet

# The screenshots of docs/first-tournament.md, taken again by the browser test that walks
# the flow (tests/browser/test_docs_walkthrough.py); commit the PNGs it writes.
screenshots: $(DEV_STAMP)
	DOCS_SCREENSHOTS=1 $(BIN)/python -m pytest tests/browser/test_docs_walkthrough.py -q

format: $(DEV_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The translation catalogs (locale/<code>/LC_MESSAGES/django.po): gather the marked strings
# from the code and templates, then compile the .mo files the site reads (both are
# committed; needs GNU gettext: apt-get install gettext).
MESSAGES := -l nl -l de -l pl -l he --no-obsolete --add-location=file \
	-i .venv -i static -i staticfiles -i tests -i bench -i node_modules -i build -i docs
messages: $(STAMP)
	$(BIN)/python manage.py makemessages $(MESSAGES)
	$(BIN)/python manage.py compilemessages --ignore .venv

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles build .pytest_cache .ruff_cache .hypothesis
