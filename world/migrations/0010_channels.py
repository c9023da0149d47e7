from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0009_inbox_folders')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ChannelMute',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='channel_mutes', on_delete=OnDelete.CASCADE)),
                ('channel', fields.CharField(max_length=16)),
                ('until', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('by', fields.CharField(max_length=32)),
                ('reason', fields.CharField(null=True, max_length=200)),
            ],
            options={'table': 'channel_mute', 'app': 'models', 'unique_together': (('account', 'channel'),), 'pk_attr': 'id', 'table_description': "A moderator's `chanmute`: the account may not speak on the channel until ``until``."},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Account',
            name='channels_off',
            field=fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
    ]
