from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0014_lease_epoch')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Seat',
            name='autopilot',
            field=fields.BooleanField(default=False, db_default=False),
        ),
    ]
