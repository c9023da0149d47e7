from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0007_title')]

    initial = False

    operations = [
        ops.CreateModel(
            name='BoardNote',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('author', fields.ForeignKeyField('models.Account', source_field='author_id', db_constraint=True, to_field='id', related_name='board_notes', on_delete=OnDelete.CASCADE)),
                ('parent', fields.ForeignKeyField('models.BoardNote', source_field='parent_id', null=True, db_constraint=True, to_field='id', related_name='replies', on_delete=OnDelete.CASCADE)),
                ('text', fields.TextField(unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'board_note', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A note on the board (`board post TEXT`), or a reply to one (``parent`` set): notes and'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='NewsItem',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('title', fields.CharField(max_length=200)),
                ('text', fields.TextField(unique=False)),
                ('by', fields.CharField(default='', max_length=32)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'news_item', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A piece of news an admin posted (`news post TITLE | TEXT`: world/news.py).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='NewsRead',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account', fields.ForeignKeyField('models.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='news_read', on_delete=OnDelete.CASCADE)),
                ('item', fields.ForeignKeyField('models.NewsItem', source_field='item_id', db_constraint=True, to_field='id', related_name='read_by', on_delete=OnDelete.CASCADE)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'news_read', 'app': 'models', 'unique_together': (('account', 'item'),), 'pk_attr': 'id', 'table_description': 'An account has read a piece of news: it no longer counts as unread at login.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ServerSetting',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('key', fields.CharField(unique=True, max_length=64)),
                ('value', fields.TextField(unique=False)),
                ('by', fields.CharField(default='', max_length=32)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'server_setting', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A setting an admin changes while the server runs, kept across restarts: the message of the'},
            bases=['Model'],
        ),
    ]
