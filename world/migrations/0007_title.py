from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0006_page_length')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Account',
            name='last_seen',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Account',
            name='title',
            field=fields.CharField(null=True, max_length=160),
        ),
    ]
