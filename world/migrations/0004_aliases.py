from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0003_admin_tools')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Alias',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='aliases', on_delete=OnDelete.CASCADE)),
                ('name', fields.CharField(max_length=32)),
                ('name_key', fields.CharField(max_length=32)),
                ('text', fields.TextField(unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'alias', 'app': 'models', 'unique_together': (('account', 'name_key'),), 'pk_attr': 'id', 'table_description': "A player's own shortcut (`alias NAME TEXT`: world/aliases.py)."},
            bases=['Model'],
        ),
    ]
