from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0002_added_columns')]

    initial = False

    operations = [
        ops.CreateModel(
            name='LoginRecord',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='login_records', on_delete=OnDelete.CASCADE)),
                ('door', fields.CharField(max_length=16)),
                ('address', fields.CharField(max_length=64)),
                ('count', fields.IntField(default=1)),
                ('first_seen', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('last_seen', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'login_record', 'app': 'models', 'unique_together': (('account', 'door', 'address'),), 'pk_attr': 'id', 'table_description': 'Where an account logged in from: one row per (account, door, address), kept bounded'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PasswordReset',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='password_resets', on_delete=OnDelete.CASCADE)),
                ('code_hash', fields.CharField(max_length=255)),
                ('by', fields.CharField(default='', max_length=32)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('used_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'password_reset', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A one-time code an admin gave out (`resetpass`), kept only as its argon2 hash. A new code'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Ban',
            name='reason',
            field=fields.CharField(null=True, max_length=200),
        ),
    ]
