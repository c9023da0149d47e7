from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0012_history')]

    initial = False

    operations = [
        ops.RemoveIndex(
            model_name='GameResult',
            name=None,
            fields=['account_id', 'game', 'season'],
        ),
        ops.AddIndex(
            model_name='GameResult',
            index=Index(fields=['account_id', 'game', 'season', 'side', 'role', 'won', 'with_bots', 'seconds']),
        ),
    ]
