"""tortoise-orm migrations of the "models" app (world/models.py); docs/migrations.md says how to add one."""
