"""Every rack has its finish (filled in by the previous migration): required from now on,
a place from 1 to the result's seats, a winner's place 1."""

import django.db.models.expressions
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_rack_place"),
    ]

    operations = [
        migrations.AlterField(
            model_name="rackentry",
            name="place",
            field=models.PositiveSmallIntegerField(),
        ),
        migrations.AlterField(
            model_name="rackentry",
            name="place_shared",
            field=models.BooleanField(),
        ),
        migrations.AlterField(
            model_name="rackentry",
            name="seats",
            field=models.PositiveSmallIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="rackentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("place__gte", 1), ("place__lte", django.db.models.expressions.F("seats"))
                ),
                name="place_within_seats",
            ),
        ),
        migrations.AddConstraint(
            model_name="rackentry",
            constraint=models.CheckConstraint(
                condition=models.Q(("winner", False), ("place", 1), _connector="OR"),
                name="winner_first",
            ),
        ),
    ]
