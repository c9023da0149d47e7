from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0010_channels')]

    initial = False

    operations = [
        ops.CreateModel(
            name='GameResult',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('table', fields.ForeignKeyField('models.GameTable', source_field='table_id', db_constraint=True, to_field='id', related_name='results', on_delete=OnDelete.CASCADE)),
                ('seat', fields.IntField()),
                ('game', fields.CharField(max_length=32)),
                ('season', fields.IntField()),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', null=True, db_constraint=True, to_field='id', related_name='results', on_delete=OnDelete.SET_NULL)),
                ('bot_level', fields.CharField(null=True, max_length=16)),
                ('side', fields.CharField(null=True, max_length=32)),
                ('role', fields.CharField(null=True, max_length=32)),
                ('rank', fields.IntField()),
                ('won', fields.BooleanField()),
                ('seconds', fields.FloatField(null=True)),
                ('with_bots', fields.BooleanField()),
                ('finished_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'game_result', 'app': 'models', 'unique_together': (('table', 'seat'),), 'pk_attr': 'id', 'table_description': 'How one seat ended one finished table: what `stats` counts and what the ratings were moved'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Rating',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('season', fields.IntField()),
                ('game', fields.CharField(max_length=32)),
                ('pool', fields.CharField(max_length=8)),
                ('player', fields.CharField(max_length=40)),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', null=True, db_constraint=True, to_field='id', related_name='ratings', on_delete=OnDelete.CASCADE)),
                ('bot_level', fields.CharField(null=True, max_length=16)),
                ('mu', fields.FloatField()),
                ('sigma', fields.FloatField()),
                ('ordinal', fields.FloatField()),
                ('games', fields.IntField(default=0)),
                ('wins', fields.IntField(default=0)),
            ],
            options={'table': 'rating', 'app': 'models', 'unique_together': (('season', 'game', 'pool', 'player'),), 'pk_attr': 'id', 'table_description': "One player's (an account's or a bot level's) openskill rating in one game and season, in"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Season',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('started_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('by', fields.CharField(default='', max_length=32)),
            ],
            options={'table': 'season', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A rating season an admin started (`season new`: world/ratings.py), numbered by its id.'},
            bases=['Model'],
        ),
        ops.AddIndex(
            model_name='GameResult',
            index=Index(fields=['account_id', 'game', 'season']),
        ),
        ops.AddIndex(
            model_name='Rating',
            index=Index(fields=['season', 'game', 'pool', 'ordinal']),
        ),
    ]
