# Rummitab — the two commands of the README, and a few helpers.
# `make run`  installs into .venv, migrates, seeds the demo and starts the site.
# `make test` installs into .venv and runs every test, the linters and the layer contracts.
# `make lan`  serves the site to phones on the club's Wi-Fi (config/lan.py; PORT=8000,
#             LAN_ADDRESS=detected).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

PORT ?= 8000

.PHONY: run lan test install lint format messages bench clean docs screenshots

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

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

test: $(STAMP)
	$(BIN)/python -m pytest
	$(MAKE) lint

# Style, complexity (ruff), the layer contracts (import-linter) and the pure engine's types.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy scoring
	$(MKDOCS) build --strict --quiet

# The documentation (docs/, mkdocs.yml) built into build/docs/, which the site serves at
# /docs/ (config/docs_site.py). `make lint` builds it strictly: a broken link fails.
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs
docs: $(STAMP)
	$(MKDOCS) build --quiet

# The screenshots of docs/first-tournament.md, taken again by the browser test that walks
# the flow (tests/browser/test_docs_walkthrough.py); commit the PNGs it writes.
screenshots: $(STAMP)
	DOCS_SCREENSHOTS=1 $(BIN)/python -m pytest tests/browser/test_docs_walkthrough.py -q

format: $(STAMP)
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
