from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='Account',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('name', fields.CharField(max_length=32)),
                ('name_key', fields.CharField(unique=True, max_length=32)),
                ('password_hash', fields.CharField(null=True, max_length=255)),
                ('role', fields.CharField(default='player', max_length=16)),
                ('lang', fields.CharField(default='ru', max_length=4)),
                ('encoding', fields.CharField(null=True, max_length=16)),
                ('color', fields.BooleanField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('last_login', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('muted_until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'account', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Ban',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('name_key', fields.CharField(null=True, max_length=32)),
                ('address', fields.CharField(null=True, max_length=64)),
                ('until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('by', fields.CharField(default='', max_length=32)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'ban', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='GameTable',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.CharField(max_length=32)),
                ('options', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('seed', fields.BigIntField(default=0)),
                ('host', fields.CharField(max_length=32)),
                ('state', fields.CharField(default='open', max_length=16)),
                ('seats_total', fields.IntField()),
                ('deadline_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('deadline_step', fields.IntField(null=True)),
                ('outcome', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('started_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'game_table', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ActionLogEntry',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('table', fields.ForeignKeyField('models.GameTable', source_field='table_id', db_constraint=True, to_field='id', related_name='log', on_delete=OnDelete.CASCADE)),
                ('step', fields.IntField()),
                ('seat', fields.IntField()),
                ('action', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('by', fields.CharField(default='player', max_length=16)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'action_log', 'app': 'models', 'unique_together': (('table', 'step'),), 'pk_attr': 'id', 'table_description': 'One accepted action. Committed before anyone hears its result.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='InboxItem',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='inbox', on_delete=OnDelete.CASCADE)),
                ('kind', fields.CharField(max_length=16)),
                ('key', fields.CharField(max_length=128)),
                ('params', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('table_id', fields.IntField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('delivered', fields.BooleanField(default=False)),
            ],
            options={'table': 'inbox_item', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A message kept for an account: a tell while offline, a whisper, table news.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Seat',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('table', fields.ForeignKeyField('models.GameTable', source_field='table_id', db_constraint=True, to_field='id', related_name='seats', on_delete=OnDelete.CASCADE)),
                ('number', fields.IntField()),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', null=True, db_constraint=True, to_field='id', related_name='seats', on_delete=OnDelete.SET_NULL)),
                ('bot_level', fields.CharField(null=True, max_length=16)),
                ('name', fields.CharField(max_length=32)),
            ],
            options={'table': 'seat', 'app': 'models', 'unique_together': (('table', 'number'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='SshKey',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='keys', on_delete=OnDelete.CASCADE)),
                ('algorithm', fields.CharField(max_length=64)),
                ('key_data', fields.TextField(unique=False)),
                ('comment', fields.CharField(default='', max_length=255)),
                ('fingerprint', fields.CharField(max_length=128)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'ssh_key', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
