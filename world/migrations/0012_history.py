from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index

from world.schema import AddIndexDatingBroken, AddIndexDatingSeats

class Migration(migrations.Migration):
    dependencies = [('models', '0011_ratings')]

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
        ops.AddField(
            model_name='Seat',
            name='ended_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        AddIndexDatingSeats(
            model_name='Seat',
            index=Index(fields=['account_id', 'ended_at', 'table_id']),
        ),
    ]
