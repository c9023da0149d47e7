from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.indexes import Index

from world.schema import AddIndexDatingBroken

class Migration(migrations.Migration):
    dependencies = [('models', '0010_channels')]

    initial = False

    operations = [
        AddIndexDatingBroken(
            model_name='GameTable',
            index=Index(fields=['finished_at', 'id']),
        ),
        ops.AddIndex(
            model_name='GameTable',
            index=Index(fields=['game', 'finished_at', 'id']),
        ),
        ops.AddIndex(
            model_name='Seat',
            index=Index(fields=['account_id', 'table_id']),
        ),
    ]
