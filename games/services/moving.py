"""Moving a whole club database to PostgreSQL (`manage.py move_to_postgresql`).

Terms:
* source — the database moved from: the configured one (the laptop's SQLite file) or a
  file named on the command line.
* target — the PostgreSQL database moved to, added as a second connection alias while the
  command runs (`database_add`); it must be empty (`target_rows`).
* table — one concrete model's table, of every installed app: Django's accounts, groups,
  permissions, content types, sessions and admin log, DRF's tokens, django-axes' records,
  simple_history's historical tables, the auto-created many-to-many tables and every
  model of the project. The list is read from the app registry (`tables`), never written
  out, so a model added by a later migration is copied without a change here.
* fingerprint — what the standings look like in one database, computed by the project's
  own services with that database as the default one (`fingerprint`): each tournament's
  stored snapshot and a fresh recompute, each stage's standings, each season's table
  (stored and fresh) and each club's ratings (stored and rated again from scratch),
  each as a digest of its JSON (keys sorted).

How the copy is made (decisions where nothing else decided):
* The target is migrated first (`migrate` on it; a new, empty PostgreSQL database needs
  nothing else). Migrating fills Django's content types and permissions with ids of the
  target's own choosing; the copy replaces them by the source's rows, ids and all, so
  every reference to them (a user's permissions, the admin log) copies unchanged. That is
  why those two tables count as empty whatever they hold.
* Rows are copied with their primary keys, table by table in foreign-key order, in one
  transaction on the target: each table's rows are read from the source as Django reads
  them (`size` at a time) and streamed into PostgreSQL's COPY (psycopg's `write_row`),
  some five times faster than multi-row INSERTs (`bulk_create`), whose per-value
  preparation was two thirds of the time. Values psycopg writes as they are (numbers,
  text, booleans, dates and times) are passed as read; any other field's go through its
  own `get_db_prep_save` (JSON, ...). Nothing is saved through the models, so no signal
  fires (simple_history writes no extra history row) and no `auto_now` stamp is set:
  every `created_at`, `updated_at` and `submitted_at` keeps the source's value, where
  `bulk_create` would stamp the time of the move.
* PostgreSQL checks the foreign keys Django creates at commit (DEFERRABLE INITIALLY
  DEFERRED); they are checked once more before the commit (`check_constraints`) so a
  dangling reference in the source is reported by name rather than as a failed commit.
* The sequences are set past the largest copied id (`sqlsequencereset`'s SQL) in the
  same transaction: the next row created on the target gets a fresh id.
* Sessions and django-axes' sign-in records are copied too (a whole database): a target
  site with the same SECRET_KEY keeps everyone signed in, and a locked username stays
  locked. `clearsessions` drops the expired ones at any time.

What the check compares: the fingerprints of both databases, each computed in a process
of its own (they run side by side): the rows of every table (count, and a digest of every
value in primary-key order, as Django reads them back) and the standings.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from typing import Any, cast

import dj_database_url
from django.apps import apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    IntegrityError,
    connections,
    models,
    transaction,
)
from django.db.migrations.executor import MigrationExecutor

from scoring.errors import RuleError
from tournaments.models import Club, Season, Stage, Tournament

from ..models import SeasonStandings, Standings
from .ratings import current_ratings, ratings_update
from .seasons import season_recompute
from .stages import stage_rows
from .standings import standings_recompute

DEFAULT_BATCH = 2000
# Tables whose rows `migrate` itself creates on the target (and the copy replaces).
FILLED_BY_MIGRATE = (ContentType, Permission)


class MoveError(Exception):
    """The move cannot start or did not give an equal copy; the message says why."""


def database_add(alias: str, url: str) -> dict[str, Any]:
    """Add the database at `url` as connection `alias` for the rest of the process."""
    try:
        config = dj_database_url.parse(url)
    except ValueError as error:
        raise MoveError(f"{url!r} is not a database URL: {error}") from None
    # configure_settings fills in Django's defaults (AUTOCOMMIT, OPTIONS, TEST, ...); it
    # insists on a "default" entry, so it is given a copy of the current one.
    filled = connections.configure_settings(
        {"default": dict(connections.settings["default"]), alias: config}
    )[alias]
    connections.settings[alias] = filled
    return filled


def database_label(alias: str) -> str:
    """Where a database is, for messages: never its password."""
    config = connections.settings[alias]
    if config["ENGINE"].endswith("sqlite3"):
        return f"SQLite {config['NAME']}"
    host = config.get("HOST") or "local socket"
    port = f":{config['PORT']}" if config.get("PORT") else ""
    return f"{connections[alias].display_name} {config['NAME']} on {host}{port}"


def same_database(one: str, other: str) -> bool:
    a, b = connections.settings[one], connections.settings[other]
    keys = ("ENGINE", "NAME", "HOST", "PORT")
    return all(str(a.get(k) or "") == str(b.get(k) or "") for k in keys)


def tables() -> list[type[models.Model]]:
    """Every model with a table of its own, parents before the models that point at them.

    Proxy, unmanaged and swapped-out models have no table to copy. A model's own
    self-reference (a stage's `side_of`) is no ordering constraint; PostgreSQL checks it
    at commit anyway."""
    found = [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy and not model._meta.swapped
    ]
    known = set(found)
    graph: TopologicalSorter = TopologicalSorter()
    for model in sorted(found, key=lambda m: m._meta.label):
        parents = {
            field.related_model
            for field in model._meta.concrete_fields
            if field.is_relation and field.related_model in known
        }
        graph.add(model, *(parents - {model}))
    try:
        return list(graph.static_order())
    except CycleError:  # two tables pointing at each other: PostgreSQL checks at commit
        return sorted(found, key=lambda m: m._meta.label)


def unapplied_migrations(alias: str) -> list[str]:
    executor = MigrationExecutor(connections[alias])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def target_rows(alias: str) -> dict[str, int]:
    """The tables of the target that hold rows (migrate's own tables aside)."""
    existing = set(connections[alias].introspection.table_names())
    held = {}
    for model in tables():
        table = model._meta.db_table
        if model in FILLED_BY_MIGRATE or table not in existing:
            continue
        rows = model._base_manager.using(alias).count()
        if rows:
            held[table] = rows
    return held


def target_check(alias: str) -> None:
    """Refuse a target that is not PostgreSQL, or that does not answer."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        raise MoveError(
            "The target must be a PostgreSQL database (postgres://...), "
            f"not {database_label(alias)}."
        )
    try:
        connection.ensure_connection()
    except Exception as error:  # psycopg's OperationalError, wrapped by Django
        raise MoveError(f"Cannot connect to {database_label(alias)}: {error}") from None


def target_prepare(alias: str) -> None:
    """Refuse a target that holds rows; migrate it when it is not (`target_check` first)."""
    held = target_rows(alias)
    if held:
        raise MoveError(_not_empty(alias, held))
    if unapplied_migrations(alias):
        call_command("migrate", database=alias, interactive=False, verbosity=0)
    held = target_rows(alias)
    if held:  # a data migration that created rows would be moved over the source's
        raise MoveError(_not_empty(alias, held))


def _not_empty(alias: str, held: dict[str, int]) -> str:
    shown = ", ".join(f"{table} ({rows} rows)" for table, rows in sorted(held.items())[:5])
    more = f" and {len(held) - 5} more tables" if len(held) > 5 else ""
    return (
        f"The target {database_label(alias)} is not empty: {shown}{more}. "
        "Move into a new, empty database (createdb), never over one in use."
    )


def source_check(alias: str) -> None:
    try:
        connections[alias].ensure_connection()
    except Exception as error:
        raise MoveError(f"Cannot open the source {database_label(alias)}: {error}") from None
    pending = unapplied_migrations(alias)
    if pending:
        raise MoveError(
            f"The source {database_label(alias)} is not migrated to this version of Rummitab "
            f"({len(pending)} migrations to apply, first {pending[0]}): run "
            "`manage.py migrate` on it first."
        )


def untracked_tables(alias: str) -> list[str]:
    """Tables of the source that no installed model owns (they are not copied)."""
    owned = {model._meta.db_table for model in tables()}
    ignored = {"django_migrations", "sqlite_sequence"}
    return sorted(set(connections[alias].introspection.table_names()) - owned - ignored)


@dataclass(frozen=True)
class Copied:
    table: str
    rows: int
    seconds: float


# Field types whose Python values psycopg writes as they are; any other field's values
# go through the field's own preparation (`get_db_prep_save`: JSON, decimals, ...).
PLAIN_TYPES = {
    "AutoField",
    "BigAutoField",
    "SmallAutoField",
    "IntegerField",
    "BigIntegerField",
    "SmallIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "PositiveSmallIntegerField",
    "BooleanField",
    "CharField",
    "TextField",
    "SlugField",
    "EmailField",
    "URLField",
    "FloatField",
    "DateField",
    "DateTimeField",
}


def _preparers(model: type[models.Model], alias: str) -> list[Callable[[Any], Any]]:
    connection = connections[alias]

    def prepared(field: models.Field) -> Callable[[Any], Any]:
        return lambda value: field.get_db_prep_save(value, connection)

    def plain(field: models.Field) -> bool:
        # A concrete relation is a foreign key: it stores its target's value.
        stored = field.target_field if isinstance(field, models.ForeignKey) else field
        return stored.get_internal_type() in PLAIN_TYPES

    return [
        (lambda value: value) if plain(field) else prepared(field)
        for field in model._meta.local_concrete_fields
    ]


def _copy_table(model: type[models.Model], source: str, target: str, size: int) -> int:
    """Stream one table's rows, as Django reads them from the source, into PostgreSQL's
    COPY on the target (psycopg's `copy.write_row`); `size` rows are read at a time."""
    fields = model._meta.local_concrete_fields
    prepare = _preparers(model, target)
    connection = connections[target]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(cast(str, field.column)) for field in fields)  # concrete: a column
    statement = f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN"
    rows = (
        model._base_manager.using(source)
        .order_by(model._meta.pk.attname)
        .values_list(*(field.attname for field in fields))
        .iterator(chunk_size=size)
    )
    count = 0
    # psycopg's own cursor (Django's has no COPY); its errors become Django's.
    with (
        connection.wrap_database_errors,
        connection.cursor() as cursor,
        cursor.cursor.copy(statement) as copy,
    ):
        for row in rows:
            copy.write_row([p(value) for p, value in zip(prepare, row, strict=True)])
            count += 1
    return count


def copy_all(
    source: str,
    target: str,
    size: int = DEFAULT_BATCH,
    progress: Callable[[Copied], None] = lambda copied: None,
) -> list[Copied]:
    """Copy every table from `source` into the prepared `target` in one transaction (see
    the module doc); `progress` hears of each table as it is done."""
    order = tables()
    done = []
    with transaction.atomic(using=target):
        for filled in FILLED_BY_MIGRATE[::-1]:  # permissions point at content types
            filled._base_manager.using(target).all().delete()
        for model in order:
            started = time.perf_counter()
            try:
                rows = _copy_table(model, source, target, size)
            except DatabaseError as error:
                # SQLite lets through what PostgreSQL refuses: a text longer than its
                # column's max_length, a NUL character.
                raise MoveError(
                    f"Copying {model._meta.db_table} failed, so nothing was copied: {error}"
                ) from None
            copied = Copied(model._meta.db_table, rows, time.perf_counter() - started)
            done.append(copied)
            progress(copied)
        connection = connections[target]
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), order):
                cursor.execute(statement)
        try:
            connection.check_constraints()
        except IntegrityError as error:
            raise MoveError(f"A reference in the source points nowhere: {error}") from None
    ContentType.objects.clear_cache()
    return done


@dataclass(frozen=True)
class TableCheck:
    table: str
    source_rows: int
    target_rows: int
    same_values: bool

    @property
    def equal(self) -> bool:
        return self.source_rows == self.target_rows and self.same_values


def _digest(model: type[models.Model], alias: str) -> tuple[int, str]:
    """The row count and a digest of every value, rows in primary-key order. JSON is
    compared with sorted keys: PostgreSQL's jsonb keeps keys in an order of its own."""
    names = [field.attname for field in model._meta.local_concrete_fields]
    rows = (
        model._base_manager.using(alias)
        .order_by(model._meta.pk.attname)
        .values_list(*names)
        .iterator(chunk_size=2000)
    )
    digest = hashlib.sha256()
    count = 0
    for row in rows:
        digest.update(json.dumps(row, sort_keys=True, default=str).encode())
        count += 1
    return count, digest.hexdigest()


def table_digests(alias: str = DEFAULT_DB_ALIAS) -> dict[str, list]:
    """Each table's row count and digest (`_digest`), by table name."""
    return {model._meta.db_table: list(_digest(model, alias)) for model in tables()}


def tables_compare(source: dict[str, list], target: dict[str, list]) -> list[TableCheck]:
    return [
        TableCheck(
            table,
            source.get(table, [0, ""])[0],
            target.get(table, [0, ""])[0],
            source.get(table) == target.get(table),
        )
        for table in sorted(set(source) | set(target))
    ]


# --- the standings of one database, by the project's own services --------------------


def _rolled_back(compute: Callable[[], Any]) -> Any:
    """What `compute` returns, with everything it wrote undone: a fresh recompute stores
    a snapshot, and neither the source nor the copy may change while being checked."""
    with transaction.atomic():
        value = compute()
        transaction.set_rollback(True)
    return value


def _snapshot(snapshot: Standings | SeasonStandings | None) -> str | None:
    """A snapshot's version, ranking and rows, as a digest: a federation's snapshots
    would make a fingerprint of hundreds of megabytes, and a difference is reported by
    tournament, not by row."""
    if snapshot is None:
        return None
    shown = {"version": snapshot.computed_version, "rows": snapshot.rows}
    if isinstance(snapshot, Standings):
        shown["ranking"] = snapshot.ranking
    return _digest_of(shown)


def _digest_of(value: Any) -> str:
    return hashlib.sha256(_canonical(value).encode()).hexdigest()


def _fresh_standings(tournament: Tournament) -> str | None:
    def compute():
        Standings.objects.filter(tournament=tournament).delete()
        return _snapshot(standings_recompute(tournament_id=tournament.pk))

    return _rolled_back(compute)


def _fresh_season(season: Season) -> str | None:
    def compute():
        SeasonStandings.objects.filter(season=season).delete()
        return _snapshot(season_recompute(season_id=season.pk))

    return _rolled_back(compute)


def _ratings(club_id: int) -> str:
    ratings = current_ratings(club_id)
    return _digest_of([[member, r.mu, r.sigma] for member, r in sorted(ratings.items())])


def _fresh_ratings(club: Club) -> str:
    def compute():
        ratings_update(club_id=club.pk, from_scratch=True)
        return _ratings(club.pk)

    return _rolled_back(compute)


def _stage(stage: Stage) -> str:
    try:
        rows = stage_rows(stage)
    except RuleError as error:  # a stage whose ranking cannot be computed says so
        return f"not computed: {error}"
    return _digest_of(
        [
            {
                "rank": row.rank,
                "player": row.player.pk,
                "carried": row.carried,
                "metrics": row.metrics,
                "race_wins": row.race_wins,
            }
            for row in rows
        ]
    )


def fingerprint() -> dict[str, dict[str, Any]]:
    """The tables and the standings of the default database (see the module doc), as
    plain JSON data. Keys are ids, which the copy keeps; slugs are kept for messages."""
    tournaments = {
        str(t.pk): {
            "slug": t.slug,
            "results_version": t.results_version,
            "stored": _snapshot(t.standings.order_by("-computed_version").first()),
            "fresh": _fresh_standings(t),
        }
        for t in Tournament.objects.order_by("pk")
    }
    stages = {
        str(stage.pk): {
            "slug": f"{stage.tournament.slug} stage {stage.number}",
            "rows": _stage(stage),
        }
        for stage in Stage.objects.select_related("tournament").order_by("pk")
    }
    seasons = {
        str(season.pk): {
            "slug": f"season {season.pk}",
            "stored": _snapshot(season.standings.order_by("-computed_version").first()),
            "fresh": _fresh_season(season),
        }
        for season in Season.objects.order_by("pk")
    }
    ratings = {
        str(club.pk): {
            "slug": club.slug,
            "stored": _ratings(club.pk),
            "fresh": _fresh_ratings(club),
        }
        for club in Club.objects.order_by("pk")
    }
    return {
        "tables": table_digests(),
        "tournaments": tournaments,
        "stages": stages,
        "seasons": seasons,
        "ratings": ratings,
    }


def fingerprints_compare(source: dict, target: dict) -> tuple[int, int, list[str]]:
    """How many standings were compared, how many are equal, and one line per difference."""
    compared, equal, differences = 0, 0, []
    for kind in ("tournaments", "stages", "seasons", "ratings"):
        one, other = source.get(kind, {}), target.get(kind, {})
        for key in sorted(set(one) | set(other), key=int):
            if key not in other or key not in one:
                where = "the copy" if key not in other else "the source"
                name = (one.get(key) or other.get(key))["slug"]
                differences.append(f"{kind} {name}: missing in {where}")
                continue
            compared += 1
            parts = [
                part
                for part, value in one[key].items()
                if _canonical(value) != _canonical(other[key].get(part))
            ]
            if parts:
                differences.append(f"{kind} {one[key]['slug']}: {', '.join(parts)} differ")
            else:
                equal += 1
    return compared, equal, differences


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
