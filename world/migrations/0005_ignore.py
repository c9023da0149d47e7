from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0004_aliases')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Ignore',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('owner', fields.ForeignKeyField('models.Account', source_field='owner_id', db_constraint=True, to_field='id', related_name='ignoring', on_delete=OnDelete.CASCADE)),
                ('ignored', fields.ForeignKeyField('models.Account', source_field='ignored_id', db_constraint=True, to_field='id', related_name='ignored_by', on_delete=OnDelete.CASCADE)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'account_ignore', 'app': 'models', 'unique_together': (('owner', 'ignored'),), 'pk_attr': 'id', 'table_description': "One account ignoring another (`ignore NAME`): the ignored one's chat, emotes and tells no"},
            bases=['Model'],
        ),
    ]
