"""Rummitab settings: one module, everything from the environment.

Defaults run on a laptop with nothing installed (SQLite, jobs in-process). Production sets
`DEBUG=0`, `SECRET_KEY`, `ALLOWED_HOSTS`, `DATABASE_URL` and `REDIS_URL`.
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Final

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.keyfile import secret_key_from_file

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def redis_cache(url: str) -> dict:
    """A Redis cache that gives up quickly: Redis answers in well under a millisecond
    when it is well, so a second without an answer means it is down or hung. The API's
    throttles then count in a per-process stand-in (config.fallback_cache) and the
    standings service enqueues without its "already queued" mark, instead of failing."""
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "rummitab",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1},
    }


DEBUG = env_bool("DEBUG", True)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")

# The address phones reach the site at: QR codes and links on the printed table sheets
# are built from it, never from the host of the organiser's request (a laptop browsing
# itself as 127.0.0.1 would print QR codes no phone can open). `make lan` sets it to the
# laptop's address on the club's Wi-Fi (config/lan.py). Unset: http://127.0.0.1:<PORT> while
# DEBUG is on, else https:// and the first host of ALLOWED_HOSTS that is not a pattern.
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").strip().rstrip("/")
# The port `make run` and `make lan` serve on; the default public base URL follows it.
PORT = env_int("PORT", 8000)
if not PUBLIC_BASE_URL:
    _named = [host for host in ALLOWED_HOSTS if host and not host.startswith(".") and host != "*"]
    PUBLIC_BASE_URL = f"http://127.0.0.1:{PORT}" if DEBUG or not _named else f"https://{_named[0]}"
if not PUBLIC_BASE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured("PUBLIC_BASE_URL must start with http:// or https://.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "axes",
    "tournaments",
    "games",
    "circuits",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Right after the static files: anonymous readers of the polled pages are answered
    # from the shared cache before sessions, CSRF and auth are looked at.
    "config.page_cache.PublicPageCache",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of the switcher's cookie, else of the browser (after sessions, before
    # common, as Django asks).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A table link's phone reaches its table's pages only (config/table_link_scope.py).
    "config.table_link_scope.TableLinkScopeMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Inside the messages middleware: a saved form's "saved" message waits for the page.
    "config.middleware.OfflineSubmitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Next to innermost, so a page's blocked delete or deadlock becomes a 409 page, not a 500.
    "config.middleware.ConflictPageMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the "paused" page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE and LANGUAGE_BIDI for <html lang dir> in every page.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# Database: SQLite beside the code unless DATABASE_URL names another one.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
SQLITE = DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
if SQLITE:
    # The club laptop: several scorekeepers write at once and must wait, never fail.
    # * transaction_mode IMMEDIATE: every transaction (`atomic`) takes the write lock when
    #   it begins, where the busy timeout applies. A deferred one that read first cannot
    #   be upgraded to a writer once another has written; SQLite fails it at once
    #   ("database is locked") whatever the timeout.
    # * timeout: seconds a writer waits for the lock (the busy timeout) before giving up.
    # * WAL journal: readers never wait for the writer, nor the writer for readers, so
    #   the polling phones do not hold up a save. Kept in the file once set.
    # * synchronous NORMAL: in WAL mode a commit is not synced to disk until the next
    #   checkpoint; a power cut may lose the last commits but never corrupts the file,
    #   and a crash of the program loses nothing. FULL would sync every commit (slower
    #   saves on a laptop's disk); set SQLITE_SYNCHRONOUS=FULL to choose it.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        timeout=env_int("SQLITE_BUSY_TIMEOUT", 20),
        init_command=(
            "PRAGMA journal_mode=WAL;"
            f"PRAGMA synchronous={os.environ.get('SQLITE_SYNCHRONOUS', 'NORMAL')}"
        ),
    )

# Where this install keeps its files (the secret key file here, backups in backups/):
# beside the SQLite database by default, else beside the code.
_sqlite_file = str(DATABASES["default"]["NAME"]) if SQLITE else ""
DATA_DIR = Path(
    os.environ.get("DATA_DIR")
    or (
        Path(_sqlite_file).resolve().parent
        if _sqlite_file and _sqlite_file != ":memory:" and "mode=memory" not in _sqlite_file
        else BASE_DIR
    )
)
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE") or DATA_DIR / "secret_key")
# The key that signs sessions, table links and password reset links. From the environment
# in production (DEBUG off on PostgreSQL: refused without it, since several servers must
# share one key); else kept in SECRET_KEY_FILE, made on the first start (config.keyfile):
# `make run`, `make lan` and any SQLite install never sign with a key anyone can read.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and not SQLITE:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = secret_key_from_file(SECRET_KEY_FILE)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# SQLite backups (tournaments/backups.py, docs/operations/backups.md): taken into
# BACKUP_DIR every BACKUP_INTERVAL_SECONDS while the server runs (0: only on a round
# opened, a stage closed, or asked for), the newest BACKUP_KEEP of each of these kinds kept.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or DATA_DIR / "backups")
BACKUP_INTERVAL_SECONDS = env_int("BACKUP_INTERVAL_SECONDS", 300)
BACKUP_KEEP = env_int("BACKUP_KEEP", 48)
if BACKUP_KEEP < 1:
    raise ImproperlyConfigured("BACKUP_KEEP must be at least 1: the newest backup is kept.")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The languages the pages and the API speak (locale/<code>/LC_MESSAGES/django.po); a
# person picks one with the switcher (a cookie), else the browser's Accept-Language.
LANGUAGES = [
    ("en", "English"),
    ("nl", "Nederlands"),
    ("de", "Deutsch"),
    ("pl", "Polski"),
    ("he", "עברית"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and times follow the reader's language; English keeps the site's "25 Nov 2026" and
# the 24-hour clock (config/formats/en/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
# The switcher's cookie (config/language.py): kept a year, sent to the site only; read by
# nothing but the server, so HttpOnly.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE: Final = "Lax"  # Final: the literal set_cookie's type accepts
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")

# The documentation site served at /docs/ (config/docs_site.py): the folder `make docs`
# builds docs/ into with MkDocs (mkdocs.yml's site_dir).
DOCS_ROOT = Path(os.environ.get("DOCS_ROOT", BASE_DIR / "build" / "docs"))
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
# With DEBUG off the collected files carry hashed names (cached for ever by browsers) and,
# unless COMPRESS_STATIC=0 (the club server, config/lan.py: collecting then takes seconds,
# not a minute), compressed copies that whitenoise serves to browsers that accept them.
COMPRESS_STATIC = env_bool("COMPRESS_STATIC", True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if COMPRESS_STATIC
            else "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"
        )
    },
}

# The site's own sign-in page (django.contrib.auth views, templates/registration/).
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Password guessing (django-axes; the policy is explained in config/login_guard.py). Failed
# sign-ins at the site's form, the admin's and POST /api/v1/auth/token/ are counted in the
# database. A username is locked at one address after LOGIN_FAILURE_LIMIT failures from
# that address (so failures from elsewhere cannot lock a scorekeeper out at the venue); an
# address only after LOGIN_ADDRESS_FAILURE_LIMIT failures against usernames not locked yet
# (0: never), because a whole club often signs in from one NAT address and must not be
# locked out because one member forgot a password. Locks last LOGIN_COOLOFF_MINUTES after
# the last counted failure (0: until an administrator unlocks).
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 100)
LOGIN_COOLOFF_MINUTES = env_int("LOGIN_COOLOFF_MINUTES", 15)
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out sign-in
    "django.contrib.auth.backends.ModelBackend",
    # Phones signed in through a table link, while the link lasts (tournaments/backends.py).
    "tournaments.backends.TableLinkBackend",
]
AXES_HANDLER = "config.login_guard.LoginGuardHandler"
# One lock per (username, address) pair; the address-only limit is the handler's own.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_COOLOFF_MINUTES) if LOGIN_COOLOFF_MINUTES else None
# Attempts at a locked username are refused without being counted: hammering neither
# extends the lock nor adds up to the address limit.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.login_guard.client_address"  # as the API throttles see it
AXES_LOCKOUT_CALLABLE = "config.login_guard.lockout_response"
# Failures are kept only as long as they count; successful sign-ins are not logged.
AXES_DISABLE_ACCESS_LOG = True

# Background jobs: a Redis broker when one is configured; otherwise tasks run in-process
# (after the transaction commits) so a laptop needs nothing else.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A task is acknowledged only when it finished, and put back when its worker died, so a
# recompute interrupted by a crash or a deploy is run again (recomputes are idempotent).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 60)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 90)
# Redis hands an unacknowledged task to another worker after this long: it must exceed
# the hard time limit, or a slow task would run twice at once.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3 * CELERY_TASK_TIME_LIMIT),
    # Publishing waits at most a few seconds for a broker that is down; the standings
    # then stay marked stale and the periodic repair catches up.
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
}
STANDINGS_REPAIR_SECONDS = env_int("STANDINGS_REPAIR_SECONDS", 30)
# Standings snapshots kept per tournament, newest first (about 300 KB each at 1,000
# players); older ones are deleted as a new one is stored. The newest is always kept.
STANDINGS_KEEP = env_int("STANDINGS_KEEP", 20)
if STANDINGS_KEEP < 1:
    raise ImproperlyConfigured("STANDINGS_KEEP must be at least 1: the newest snapshot is shown.")
# Webhooks (`tournaments.services.webhook_deliveries`): seconds one POST may take (in a worker, and
# in-process when there is no broker), attempts before a delivery fails, the first retry
# delay (doubling each time), and how long a delivery may wait untried before the periodic
# repair hands it to a worker again.
WEBHOOK_TIMEOUT = env_int("WEBHOOK_TIMEOUT", 5)
WEBHOOK_EAGER_TIMEOUT = env_int("WEBHOOK_EAGER_TIMEOUT", 2)
WEBHOOK_ATTEMPTS = env_int("WEBHOOK_ATTEMPTS", 5)
WEBHOOK_RETRY_BASE_SECONDS = env_int("WEBHOOK_RETRY_BASE_SECONDS", 2)
WEBHOOK_REPAIR_SECONDS = env_int("WEBHOOK_REPAIR_SECONDS", 300)
# --- background jobs without a broker and webhook targets (tournaments/jobs.py,
# tournaments/webhook_targets.py; docs/operations/background-jobs.md,
# docs/api/webhooks-security.md) ---
# Without a broker, jobs run after the response on this process's worker threads; with
# JOBS_INLINE they run at once in the caller (the test suite sets it). At exit the threads
# get JOBS_DRAIN_SECONDS to finish the jobs already due.
JOBS_INLINE = env_bool("JOBS_INLINE", False)
JOBS_DRAIN_SECONDS = env_int("JOBS_DRAIN_SECONDS", 10)
# --- exports and imports run as background jobs (games/services/export_jobs.py;
# docs/operations/configuration.md) ---
# Finished files of background exports are kept in EXPORT_DIR for EXPORT_KEEP_HOURS.
# An event file larger than EVENT_FILE_REQUEST_BYTES is imported by a job, not in the
# request; one larger than EVENT_FILE_MAX_BYTES is refused (413 naming the limit).
EXPORT_DIR = Path(os.environ.get("EXPORT_DIR") or DATA_DIR / "exports")
EXPORT_KEEP_HOURS = env_int("EXPORT_KEEP_HOURS", 24)
# A round's sheets PDF is made in chunks by separate tasks, this many queued or running at
# a time (games/sheets.py): the worker processes it may take at once.
SHEETS_PARALLEL = env_int("SHEETS_PARALLEL", 2)
EVENT_FILE_REQUEST_BYTES = env_int("EVENT_FILE_REQUEST_BYTES", 4 * 1024 * 1024)
# ...and so is one holding more players and racks than this (what an import writes).
EVENT_FILE_REQUEST_ROWS = env_int("EVENT_FILE_REQUEST_ROWS", 10_000)
EVENT_FILE_MAX_BYTES = env_int("EVENT_FILE_MAX_BYTES", 16 * 1024 * 1024)
# Webhooks may reach this machine and the private networks (a club's own LAN) only with
# this on; link-local, multicast, reserved addresses and database ports never.
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", False)
# --- end of background jobs and webhook targets ---
CELERY_BEAT_SCHEDULE = {
    "repair-stale-standings": {
        "task": "games.repair_standings",
        "schedule": STANDINGS_REPAIR_SECONDS,
    },
    "repair-webhook-deliveries": {
        "task": "games.repair_webhooks",
        "schedule": 60,
    },
}

# GET /health/ answers 503 once some tournament's standings have been stale for longer than
# this (seconds): no worker is catching up. The periodic repair runs every
# STANDINGS_REPAIR_SECONDS, so this should be several times that.
HEALTH_STALE_SECONDS = env_int("HEALTH_STALE_SECONDS", 300)

# A CSV import registers its players in one request: a file of more rows is refused before
# any row is checked, so an import stays well inside the web worker's timeout.
CSV_IMPORT_MAX_ROWS = env_int("CSV_IMPORT_MAX_ROWS", 2000)

# Days a staff invitation link stays good (one use; the organiser may revoke it sooner).
STAFF_INVITATION_DAYS = env_int("STAFF_INVITATION_DAYS", 7)
if STAFF_INVITATION_DAYS < 1:
    raise ImproperlyConfigured("STAFF_INVITATION_DAYS must be at least 1.")
# The most a page's form fields may hold together (Django's default is 2.5 MB): the largest
# form, a manual round of 1,000 players, is about 8 KB. Uploaded files do not count here:
# the CSV import refuses a file over `tournaments.services.players.MAX_CSV_BYTES` itself.
# The API's JSON and form bodies have a lower cap (`config.api.MAX_BODY_BYTES`, a 413).
DATA_UPLOAD_MAX_MEMORY_SIZE = 512 * 1024

# The cache holds throttling counters and the "a recompute is already queued" marks; with
# Redis configured it is shared by every web process and worker (see redis_cache above for
# what happens when that Redis is down).
CACHE_URL = os.environ.get("CACHE_URL", REDIS_URL)
CACHES = {
    "default": (
        redis_cache(CACHE_URL)
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Rendered pages and pieces of pages kept in the shared cache (config.page_cache,
# games.views.caching) are dropped after this many seconds even if no change was counted.
PAGE_CACHE_SECONDS = env_int("PAGE_CACHE_SECONDS", 60)
# How long a web process trusts the page generation it last read (config.page_cache):
# a change reaches every process's answers within this time.
PAGE_CACHE_LOCAL_SECONDS = float(os.environ.get("PAGE_CACHE_LOCAL_SECONDS", "0.2"))
# A tournament's public pages move at most once in this many seconds, however many
# changes land (tournaments.events, "coalescing"); the last one is shown within it.
PAGE_CACHE_COALESCE_SECONDS = float(os.environ.get("PAGE_CACHE_COALESCE_SECONDS", "1.0"))

# API tokens are good for this many days from when they were issued (0: for ever); then
# requests with one answer 401 ("expired") and POST /api/v1/auth/token/ issues a new one.
API_TOKEN_DAYS = env_int("API_TOKEN_DAYS", 30)

REST_FRAMEWORK = {
    # Token first: a request without credentials then gets 401 + WWW-Authenticate, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "config.api.StrictJSONParser",
        "config.api.CappedFormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.api.Page",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "config.openapi.ContractAutoSchema",
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["config.api.AnonThrottle", "config.api.UserThrottle"],
    # Rates as "<count>/<second|minute|hour|day>". `token` guards the password check of
    # POST /api/v1/auth/token/ per IP address.
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "120/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "1200/minute"),
        "token": os.environ.get("API_THROTTLE_TOKEN", "10/minute"),
        # Anonymous fetches of the OpenAPI schema, per IP address (config/api_schema.py).
        "schema": os.environ.get("API_THROTTLE_SCHEMA", "30/minute"),
    },
    # Proxies in front that append to X-Forwarded-For (1 behind the usual TLS proxy). With
    # 0 the client's address is REMOTE_ADDR: a forged header cannot dodge the throttles.
    "NUM_PROXIES": env_int("API_NUM_PROXIES", 0),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Rummitab API",
    "DESCRIPTION": (
        "Tournament tab system for Rummikub clubs. Sign in with `POST /api/v1/auth/token/` "
        "and send `Authorization: Token <token>`. Anonymous users read public tournaments; "
        "organisers change their tournaments; scorekeepers enter results and penalties. "
        "A token lasts `API_TOKEN_DAYS` days (30 by default) and `DELETE "
        "/api/v1/auth/token/` revokes it."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Ids and numbers in paths (config.converters.NumberConverter) are integers.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}
    },
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "PlayerStatusEnum": "tournaments.models.Player.Status",
        "ResultStatusEnum": "games.models.Result.Status",
        "PenaltyKindEnum": "games.models.Penalty.Kind",
        "StageKindEnum": "tournaments.models.Stage.Kind",
    },
    # Swagger UI from the drf-spectacular-sidecar package: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The contract's rules for every operation: errors, constraints, the event file.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.postprocess",
    ],
}

# Content-Security-Policy on every page (django-csp): scripts and styles only from the
# site's own files, never inline — templates/ has no <script> block, no on…= handler and
# no style= attribute (htmx is told not to inject its indicator <style>, base.html). The
# chart and QR codes are inline SVG, which needs nothing. `data:` images are the icons of
# the admin's and the API docs' stylesheets.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Mail: only for password reset links, which are offered only when EMAIL_HOST is set
# (config/urls.py); without it the site sends no mail at all.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = 10  # seconds: a mail server that hangs must not hang the page
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "rummitab@localhost")

# The site is served over plain http (the club server on the Wi-Fi, `make lan`): with DEBUG
# off, no redirect to https, no HSTS and no secure-only cookies, which a phone would never
# send back over http. Everything else of the hardening below stays.
PLAIN_HTTP = env_bool("PLAIN_HTTP", False)

# Production hardening: on whenever DEBUG is off, so `check --deploy` is clean.
if not DEBUG:
    if not PLAIN_HTTP:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
        SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
        # Load balancers probe the health check over plain HTTP, straight at gunicorn.
        SECURE_REDIRECT_EXEMPT = [r"^health/$"]
        SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
        SECURE_HSTS_INCLUDE_SUBDOMAINS = True
        SECURE_HSTS_PRELOAD = True
        SESSION_COOKIE_SECURE = True
        CSRF_COOKIE_SECURE = True
        LANGUAGE_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # One line per task run is noise at a venue; failures still log as errors.
    # WeasyPrint narrates every step of a PDF (and fontTools every font) at INFO, and warns
    # about each rule of site.css meant for screens only (media queries, clip-path, ...).
    "loggers": {
        "celery.app.trace": {"level": "WARNING"},
        "weasyprint": {"level": "ERROR"},
        "fontTools": {"level": "WARNING"},
    },
}
