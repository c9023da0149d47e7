from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0008_board')]

    initial = False

    operations = [
        ops.AddIndex(
            model_name='InboxItem',
            index=Index(fields=['account_id', 'kind']),
        ),
        ops.AddIndex(
            model_name='InboxItem',
            index=Index(fields=['account_id', 'table_id']),
        ),
        ops.AddIndex(
            model_name='InboxItem',
            index=Index(fields=['created_at']),
        ),
    ]
