from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0013_stats_index')]

    initial = False

    operations = [
        ops.AddField(
            model_name='GameTable',
            name='lease_epoch',
            field=fields.IntField(default=0, db_default=0),
        ),
    ]
