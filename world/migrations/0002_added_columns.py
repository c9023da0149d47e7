"""The columns added after the first release. Earlier versions added them at start (their
ADDED_COLUMNS list), so a database they made may have any of them: each is added only where
it is missing (AddFieldIfMissing). Nullable, so old rows stay valid."""
from tortoise import migrations
from tortoise import fields

from world.schema import AddFieldIfMissing


class Migration(migrations.Migration):
    dependencies = [('models', '0001_initial')]

    initial = False

    operations = [
        AddFieldIfMissing(
            model_name='Account',
            name='autopass',
            field=fields.CharField(null=True, max_length=8),
        ),
        AddFieldIfMissing(
            model_name='GameTable',
            name='master',
            field=fields.CharField(null=True, max_length=32),
        ),
        AddFieldIfMissing(
            model_name='GameTable',
            name='paused_seconds',
            field=fields.FloatField(null=True),
        ),
        AddFieldIfMissing(
            model_name='GameTable',
            name='previous',
            field=fields.IntField(null=True),
        ),
    ]
