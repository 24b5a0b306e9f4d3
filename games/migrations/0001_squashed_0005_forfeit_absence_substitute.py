"""The games app's schema in one step: the squash of 0001_initial .. 0005_forfeit_absence_substitute.

Why: a new SQLite database took about ten seconds (a minute on a busy machine) to migrate,
nearly all of it Django re-rendering the in-memory model states after each of ~110
operations (every model that points at the user or the tournament is rebuilt again and
again). This file was made by `makemigrations` on an empty migrations folder and then
tidied by hand so each model is one CreateModel with its constraints and indexes in its
options and its foreign keys in its fields (no AddField/AddConstraint afterwards): ~14
operations. tests/config/test_migrations_squash.py checks that it builds the same schema
as the old chain.

`replaces` lists the old migrations, which stay beside it: a database that has applied all
of them gets this one marked as applied without running anything; one that has applied
some of them goes on with the old files; a new one runs only this. A later migration may
depend on ('games', '0005_forfeit_absence_substitute'): Django points it at this one.
The old data migration (0002: stamp the first result's time) has nothing to change on a
new database, so it is not repeated here; 0002's drop of the pre-`games` standings table
is (it only drops a leftover table, if there is one). Delete the old files (and `replaces`) only once
every database in use has applied them.
"""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('games', '0001_initial'),
        ('games', '0002_standings_and_first_results'),
        ('games', '0003_season_standings_ratings'),
        ('games', '0004_timer_idempotency_extensions'),
        ('games', '0005_forfeit_absence_substitute'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('tournaments', '0016_stage_division_restrict'),
    ]

    operations = [
        migrations.CreateModel(
            name='SeasonStandings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('computed_version', models.PositiveIntegerField()),
                ('computed_at', models.DateTimeField(auto_now_add=True)),
                ('rows', models.JSONField()),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.season')),
            ],
            options={
                'verbose_name_plural': 'season standings',
                'ordering': ['season', '-computed_version'],
                'constraints': [models.UniqueConstraint(fields=('season', 'computed_version'), name='one_season_snapshot_per_version')],
            },
        ),
        migrations.CreateModel(
            name='Standings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('computed_version', models.PositiveIntegerField()),
                ('computed_at', models.DateTimeField(auto_now_add=True)),
                ('ranking', models.JSONField(help_text='The ranking the rows were ordered by.')),
                ('rows', models.JSONField()),
                ('duration_ms', models.PositiveIntegerField(default=0)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.tournament')),
            ],
            options={
                'verbose_name_plural': 'standings',
                'ordering': ['tournament', '-computed_version'],
                'constraints': [models.UniqueConstraint(fields=('tournament', 'computed_version'), name='one_snapshot_per_version')],
            },
        ),
        migrations.CreateModel(
            name='Table',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='tournaments.round')),
            ],
            options={
                'ordering': ['round', 'number'],
                'constraints': [models.UniqueConstraint(fields=('round', 'number'), name='unique_table_number'), models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='table_number_positive')],
            },
        ),
        migrations.CreateModel(
            name='Game',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('starter_position', models.PositiveSmallIntegerField()),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='games.table')),
            ],
            options={
                'ordering': ['table', 'number'],
                'constraints': [models.UniqueConstraint(fields=('table', 'number'), name='unique_game_number'), models.CheckConstraint(condition=models.Q(('starter_position__gte', 1), ('starter_position__lte', 4)), name='starter_position_1_to_4')],
            },
        ),
        migrations.CreateModel(
            name='HistoricalExtension',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('used', models.PositiveSmallIntegerField(default=0)),
                ('recorded_at', models.DateTimeField(blank=True, editable=False)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('game', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='games.game')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.player')),
                ('recorded_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical extension',
                'verbose_name_plural': 'historical extensions',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalPenalty',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('kind', models.CharField(choices=[('timeout', 'Timeout (turn ran over)'), ('failed_manipulation', 'Failed manipulation'), ('sanction', 'Referee sanction (points)')], max_length=20)),
                ('tiles_drawn', models.PositiveSmallIntegerField(default=0)),
                ('points', models.PositiveIntegerField(default=0)),
                ('note', models.CharField(blank=True, max_length=300)),
                ('recorded_at', models.DateTimeField(blank=True, editable=False)),
                ('voided', models.BooleanField(default=False)),
                ('voided_at', models.DateTimeField(blank=True, null=True)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('game', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='games.game')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.player')),
                ('recorded_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('voided_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical penalty',
                'verbose_name_plural': 'historical penalties',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalResult',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('version', models.PositiveIntegerField()),
                ('end', models.CharField(choices=[('rummikub', 'Rummikub (a rack emptied)'), ('pool_exhausted', 'Pool exhausted'), ('forfeit', "Forfeit (a withdrawn player's seat)")], max_length=16)),
                ('status', models.CharField(choices=[('submitted', 'Submitted (awaiting confirmation)'), ('confirmed', 'Confirmed'), ('superseded', 'Superseded by a newer confirmed version'), ('discarded', 'Discarded (replaced before confirmation)')], max_length=12)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                ('idempotency_key', models.CharField(blank=True, max_length=64, null=True)),
                ('idempotency_fingerprint', models.CharField(blank=True, default='', max_length=64)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('confirmed_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='games.game')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('submitted_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical result',
                'verbose_name_plural': 'historical results',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='Result',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField()),
                ('end', models.CharField(choices=[('rummikub', 'Rummikub (a rack emptied)'), ('pool_exhausted', 'Pool exhausted'), ('forfeit', "Forfeit (a withdrawn player's seat)")], max_length=16)),
                ('status', models.CharField(choices=[('submitted', 'Submitted (awaiting confirmation)'), ('confirmed', 'Confirmed'), ('superseded', 'Superseded by a newer confirmed version'), ('discarded', 'Discarded (replaced before confirmation)')], max_length=12)),
                ('submitted_at', models.DateTimeField(auto_now_add=True)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                ('idempotency_key', models.CharField(blank=True, max_length=64, null=True)),
                ('idempotency_fingerprint', models.CharField(blank=True, default='', max_length=64)),
                ('confirmed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='games.game')),
                ('submitted_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['game', 'version'],
                'constraints': [models.UniqueConstraint(fields=('game', 'version'), name='unique_result_version'), models.UniqueConstraint(condition=models.Q(('status', 'confirmed')), fields=('game',), name='one_confirmed_result_per_game'), models.CheckConstraint(condition=models.Q(('version__gte', 1)), name='result_version_positive'), models.UniqueConstraint(fields=('game', 'idempotency_key'), name='one_result_per_idempotency_key'), models.CheckConstraint(condition=models.Q(models.Q(('confirmed_at__isnull', True), ('confirmed_by__isnull', True)), models.Q(('confirmed_at__isnull', False), ('confirmed_by__isnull', False)), _connector='OR'), name='confirmed_by_and_at_together')],
            },
        ),
        migrations.CreateModel(
            name='RatingChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveIntegerField()),
                ('score', models.IntegerField(help_text="The member's game score the rating read.")),
                ('mu', models.FloatField()),
                ('sigma', models.FloatField()),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='games.game')),
                ('member', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='tournaments.member')),
                ('result', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.result')),
            ],
            options={
                'ordering': ['member', 'position'],
                'constraints': [models.UniqueConstraint(fields=('member', 'game'), name='one_rating_per_game'), models.CheckConstraint(condition=models.Q(('sigma__gt', 0)), name='rating_sigma_positive')],
            },
        ),
        migrations.CreateModel(
            name='RackEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('tiles', models.CharField(blank=True, help_text='Canonical tiles; null = by totals.', max_length=400, null=True)),
                ('points', models.PositiveIntegerField(help_text='Rack value: face values + joker penalty.')),
                ('tile_count', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('jokers', models.PositiveSmallIntegerField(default=0)),
                ('no_meld', models.CharField(blank=True, choices=[('could_not', 'Could not meld'), ('declined', 'Could have melded, declined')], max_length=10, null=True)),
                ('charge', models.PositiveIntegerField(help_text='What this player paid as a loser.')),
                ('score', models.IntegerField(help_text='Game score before sanction points.')),
                ('winner', models.BooleanField(default=False)),
                ('substitute', models.CharField(blank=True, default='', max_length=100)),
                ('forfeit', models.BooleanField(default=False)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='racks', to='tournaments.player')),
                ('result', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='racks', to='games.result')),
            ],
            options={
                'ordering': ['result', 'id'],
                'indexes': [models.Index(condition=models.Q(('forfeit', True), models.Q(('substitute', ''), _negated=True), _connector='OR'), fields=['player'], name='rack_substitute_or_forfeit')],
                'constraints': [models.UniqueConstraint(fields=('result', 'player'), name='one_rack_per_player'), models.CheckConstraint(condition=models.Q(('jokers__lte', 2)), name='at_most_two_jokers'), models.CheckConstraint(condition=models.Q(('forfeit', False), ('substitute', ''), _connector='OR'), name='forfeit_not_substituted')],
            },
        ),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('absent_from', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('absence', models.CharField(blank=True, choices=[('plays_on', 'The table plays on without them'), ('forfeit', 'Their seat forfeits those games')], max_length=10)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='tournaments.player')),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='tournaments.round')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='games.table')),
            ],
            options={
                'ordering': ['table', 'position'],
                'constraints': [models.UniqueConstraint(fields=('round', 'player'), name='one_seat_per_round'), models.UniqueConstraint(fields=('table', 'position'), name='unique_seat_position'), models.CheckConstraint(condition=models.Q(('position__gte', 1), ('position__lte', 4)), name='seat_position_1_to_4'), models.CheckConstraint(condition=models.Q(models.Q(('absence', ''), ('absent_from__isnull', True)), models.Q(('absence__in', ['plays_on', 'forfeit']), ('absent_from__gte', 1)), _connector='OR'), name='seat_absence_complete')],
            },
        ),
        migrations.CreateModel(
            name='HistoricalSeat',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('absent_from', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('absence', models.CharField(blank=True, choices=[('plays_on', 'The table plays on without them'), ('forfeit', 'Their seat forfeits those games')], max_length=10)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.player')),
                ('round', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.round')),
                ('table', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='games.table')),
            ],
            options={
                'verbose_name': 'historical seat',
                'verbose_name_plural': 'historical seats',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='Extension',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('used', models.PositiveSmallIntegerField(default=0)),
                ('recorded_at', models.DateTimeField(auto_now=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='extensions', to='tournaments.player')),
                ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='extensions', to='games.game')),
            ],
            options={
                'ordering': ['game', 'player'],
                'constraints': [models.UniqueConstraint(fields=('game', 'player'), name='one_extension_count'), models.CheckConstraint(condition=models.Q(('used__gte', 0), ('used__lte', 10)), name='extensions_0_to_10')],
            },
        ),
        migrations.CreateModel(
            name='Penalty',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('timeout', 'Timeout (turn ran over)'), ('failed_manipulation', 'Failed manipulation'), ('sanction', 'Referee sanction (points)')], max_length=20)),
                ('tiles_drawn', models.PositiveSmallIntegerField(default=0)),
                ('points', models.PositiveIntegerField(default=0)),
                ('note', models.CharField(blank=True, max_length=300)),
                ('recorded_at', models.DateTimeField(auto_now_add=True)),
                ('voided', models.BooleanField(default=False)),
                ('voided_at', models.DateTimeField(blank=True, null=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='penalties', to='games.game')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='tournaments.player')),
                ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('voided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name_plural': 'penalties',
                'ordering': ['game', 'recorded_at', 'id'],
                'constraints': [models.CheckConstraint(condition=models.Q(models.Q(('kind', 'sanction'), ('points__gte', 1)), models.Q(models.Q(('kind', 'sanction'), _negated=True), ('points', 0)), _connector='OR'), name='sanction_points_only'), models.CheckConstraint(condition=models.Q(models.Q(('voided', False), ('voided_at__isnull', True), ('voided_by__isnull', True)), models.Q(('voided', True), ('voided_at__isnull', False)), _connector='OR'), name='void_recorded')],
            },
        ),
        # Standings snapshots once lived in a `scoring` app's table (see the old 0002).
        migrations.RunSQL('DROP TABLE IF EXISTS scoring_standings', migrations.RunSQL.noop),
    ]
