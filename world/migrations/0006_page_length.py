from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0005_ignore')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Account',
            name='page_length',
            field=fields.IntField(null=True),
        ),
    ]
