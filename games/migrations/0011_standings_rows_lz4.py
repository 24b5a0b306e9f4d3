"""The snapshots' rows compressed with lz4 rather than PostgreSQL's default pglz, where the
server has lz4 (PostgreSQL 14 and later, built with it, as the usual packages are): some
300 KB stored per recompute took half the time to compress, at a quarter more room (a
few dozen KB per kept snapshot). Nothing to do on SQLite or a server without lz4."""

from django.db import migrations


def _lz4(schema_editor) -> bool:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def compress(compression: str):
    def run(apps, schema_editor):
        if _lz4(schema_editor):
            table = schema_editor.quote_name(apps.get_model("games", "Standings")._meta.db_table)
            schema_editor.execute(
                f"ALTER TABLE {table} ALTER COLUMN {schema_editor.quote_name('rows')} "
                f"SET COMPRESSION {compression}"
            )

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_rack_place_required"),
    ]

    operations = [
        migrations.RunPython(compress("lz4"), compress("pglz"), elidable=True),
    ]
