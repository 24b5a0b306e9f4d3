"""Each rack's finish in its game (`place`, `place_shared`, `seats`), filled in for the
results already stored by the engine that places new ones (`scoring.placement.finishes`),
from each result's racks alone. Made required, with its checks, by the next migration."""

from itertools import groupby

from django.db import migrations, models

from scoring.placement import finishes

# Racks read and written per round trip.
CHUNK = 5000


def fill_places(apps, schema_editor):
    RackEntry = apps.get_model("games", "RackEntry")
    connection = schema_editor.connection
    quote = connection.ops.quote_name
    update = (
        f"UPDATE {quote(RackEntry._meta.db_table)} "
        "SET place = %s, place_shared = %s, seats = %s WHERE id = %s"
    )
    racks = (
        RackEntry.objects.using(connection.alias)
        .order_by("result_id", "id")
        .values_list("result_id", "id", "player_id", "score", "winner")
        .iterator(chunk_size=CHUNK)
    )
    rows = []
    with connection.cursor() as cursor:
        for _result, group in groupby(racks, key=lambda rack: rack[0]):
            lines = list(group)
            placed = finishes(
                {player: score for _, _, player, score, _ in lines},
                {player for _, _, player, _, winner in lines if winner},
            )
            rows += [(*placed[player], pk) for _, pk, player, _, _ in lines]
            if len(rows) >= CHUNK:
                cursor.executemany(update, rows)
                rows = []
        if rows:
            cursor.executemany(update, rows)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_standings_rows_as_json"),
    ]

    operations = [
        migrations.AddField(
            model_name="rackentry",
            name="place",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="rackentry",
            name="place_shared",
            field=models.BooleanField(null=True),
        ),
        migrations.AddField(
            model_name="rackentry",
            name="seats",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.RunPython(fill_places, migrations.RunPython.noop, elidable=True),
    ]
