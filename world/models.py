"""tortoise-orm models: accounts and keys, tables and seats, the action log, the inbox, bans,
where accounts logged in from, who ignores whom, the message of the day, news and the board."""
from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

# Longest name and name key a column holds (names themselves are at most 20: world/accounts.py).
NAME_LENGTH = 32


class Account(Model):
    id = fields.IntField(primary_key=True)
    name = fields.CharField(max_length=NAME_LENGTH)
    # Case-folded, look-alike-folded form of the name: unique, so "Anna" and "аnna" collide.
    name_key = fields.CharField(max_length=NAME_LENGTH, unique=True)
    password_hash = fields.CharField(max_length=255, null=True)
    role = fields.CharField(max_length=16, default="player")  # player | moderator | admin
    lang = fields.CharField(max_length=4, default="ru")
    encoding = fields.CharField(max_length=16, null=True)
    color = fields.BooleanField(null=True)  # None: follow the terminal
    page_length = fields.IntField(null=True)  # `pagelength`: None: the screen's rows; 0: never page
    autopass = fields.CharField(max_length=8, null=True)  # off | smart | on; None: the game's default
    created_at = fields.DatetimeField(auto_now_add=True)
    last_login = fields.DatetimeField(null=True)
    muted_until = fields.DatetimeField(null=True)
    # `title TEXT`: the short description `finger` shows (world/profiles.py); None: none set.
    title = fields.CharField(max_length=160, null=True)
    # When the last session of the account ended (`finger` of someone offline); None: not since
    # this column came (last_login stands in).
    last_seen = fields.DatetimeField(null=True)
    # The channels (world/channels.py) the account has left with `chat off`, a list of names; it
    # hears all others. None: none left.
    channels_off = fields.JSONField(null=True)

    class Meta:
        table = "account"


class SshKey(Model):
    id = fields.IntField(primary_key=True)
    account = fields.ForeignKeyField("models.Account", related_name="keys", on_delete=fields.CASCADE)
    algorithm = fields.CharField(max_length=64)
    key_data = fields.TextField()  # the base64 blob of the OpenSSH public key
    comment = fields.CharField(max_length=255, default="")
    fingerprint = fields.CharField(max_length=128)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "ssh_key"


class InboxItem(Model):
    """A message kept for an account: a tell while offline, a whisper, table news."""

    id = fields.IntField(primary_key=True)
    account = fields.ForeignKeyField("models.Account", related_name="inbox", on_delete=fields.CASCADE)
    kind = fields.CharField(max_length=16)  # tell | game | system (world/inbox.py: tells vs news)
    key = fields.CharField(max_length=128)
    params = fields.JSONField(default=dict)
    table_id = fields.IntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    delivered = fields.BooleanField(default=False)  # shown on a screen: read

    class Meta:
        table = "inbox_item"
        # The folders (an account's tells, an account's news of one table) and the retention sweep.
        indexes = (("account_id", "kind"), ("account_id", "table_id"), ("created_at",))


class Ban(Model):
    id = fields.IntField(primary_key=True)
    name_key = fields.CharField(max_length=NAME_LENGTH, null=True)
    address = fields.CharField(max_length=64, null=True)
    until = fields.DatetimeField(null=True)  # None: for ever
    by = fields.CharField(max_length=32, default="")
    created_at = fields.DatetimeField(auto_now_add=True)
    reason = fields.CharField(max_length=200, null=True)  # as the moderator typed it, shown to the banned

    class Meta:
        table = "ban"


class LoginRecord(Model):
    """Where an account logged in from: one row per (account, door, address), kept bounded
    (world/login_history.py), for the admin's `where NAME`."""

    id = fields.IntField(primary_key=True)
    account = fields.ForeignKeyField("models.Account", related_name="login_records", on_delete=fields.CASCADE)
    door = fields.CharField(max_length=16)  # telnet | ssh
    address = fields.CharField(max_length=64)
    count = fields.IntField(default=1)
    first_seen = fields.DatetimeField(auto_now_add=True)
    last_seen = fields.DatetimeField()

    class Meta:
        table = "login_record"
        unique_together = (("account", "door", "address"),)


class GameTable(Model):
    id = fields.IntField(primary_key=True)
    game = fields.CharField(max_length=32)
    options = fields.JSONField(default=dict)
    seed = fields.BigIntField(default=0)
    host = fields.CharField(max_length=32)
    state = fields.CharField(max_length=16, default="open")  # open | running | finished | closed
    seats_total = fields.IntField()
    # The deadline of the current wait: a wall-clock time, kept so a restart does not move it.
    deadline_at = fields.DatetimeField(null=True)
    deadline_step = fields.IntField(null=True)  # log length when the deadline was armed
    paused_seconds = fields.FloatField(null=True)  # a Master paused the clock with this much left
    master = fields.CharField(max_length=32, null=True)  # `open ... master=NAME`: the observer Master
    outcome = fields.JSONField(null=True)
    previous = fields.IntField(null=True)  # a rematch: the number of the finished table it plays again
    created_at = fields.DatetimeField(auto_now_add=True)
    started_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)  # when it ended: finished, or broken (world/broken_tables.py)
    # The fencing token of the node that owns the table (docs/cluster.md): every step it commits
    # updates the row only where this is still its epoch. 0 on a single node, where nothing takes.
    lease_epoch = fields.IntField(default=0, db_default=0)

    class Meta:
        table = "game_table"
        # `history` (world/history.py): the games that ended (an end time: finished, broken or
        # abandoned), the last to end first, all or of one game.
        indexes = (("finished_at", "id"), ("game", "finished_at", "id"))


class Seat(Model):
    id = fields.IntField(primary_key=True)
    table = fields.ForeignKeyField("models.GameTable", related_name="seats", on_delete=fields.CASCADE)
    number = fields.IntField()
    account = fields.ForeignKeyField("models.Account", related_name="seats", null=True,
                                     on_delete=fields.SET_NULL)
    bot_level = fields.CharField(max_length=16, null=True)  # set for a bot seat
    name = fields.CharField(max_length=32)
    # A bot plays this human's seat until they come back (world/seat_autopilot.py): kept for a
    # table rebuilt elsewhere.
    autopilot = fields.BooleanField(default=False, db_default=False)
    # The table's end time, copied when it ends (world/history.py ``store_end``): an account's
    # games that ended are then one range of one index, read without the tables' rows.
    ended_at = fields.DatetimeField(null=True)

    class Meta:
        table = "seat"
        unique_together = (("table", "number"),)
        # `history NAME` (world/history.py): an account's games, the last to end first.
        indexes = (("account_id", "ended_at", "table_id"),)


class ActionLogEntry(Model):
    """One accepted action. Committed before anyone hears its result."""

    id = fields.IntField(primary_key=True)
    table = fields.ForeignKeyField("models.GameTable", related_name="log", on_delete=fields.CASCADE)
    step = fields.IntField()
    seat = fields.IntField()
    action = fields.JSONField()
    by = fields.CharField(max_length=16, default="player")  # player | bot | timeout | autopilot | autopass
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "action_log"
        unique_together = (("table", "step"),)


class PasswordReset(Model):
    """A one-time code an admin gave out (`resetpass`), kept only as its argon2 hash. A new code
    for the account deletes the older ones; a used one stays (with ``used_at``) so that typing it
    again is told apart from a wrong password."""

    id = fields.IntField(primary_key=True)
    account = fields.ForeignKeyField("models.Account", related_name="password_resets", on_delete=fields.CASCADE)
    code_hash = fields.CharField(max_length=255)
    by = fields.CharField(max_length=32, default="")
    expires_at = fields.DatetimeField()
    used_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "password_reset"


class Alias(Model):
    """A player's own shortcut (`alias NAME TEXT`: world/aliases.py)."""

    id = fields.IntField(primary_key=True)
    account = fields.ForeignKeyField("models.Account", related_name="aliases", on_delete=fields.CASCADE)
    name = fields.CharField(max_length=NAME_LENGTH)  # as typed when defined
    name_key = fields.CharField(max_length=NAME_LENGTH)  # case-folded, ё as е: what is looked up
    text = fields.TextField()  # cleaned like all player text; its length is limits.alias_length
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "alias"
        unique_together = (("account", "name_key"),)


class Ignore(Model):
    """One account ignoring another (`ignore NAME`): the ignored one's chat, emotes and tells no
    longer reach the owner (world/social.py). The ignored one is never told."""

    id = fields.IntField(primary_key=True)
    owner = fields.ForeignKeyField("models.Account", related_name="ignoring", on_delete=fields.CASCADE)
    ignored = fields.ForeignKeyField("models.Account", related_name="ignored_by", on_delete=fields.CASCADE)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "account_ignore"
        unique_together = (("owner", "ignored"),)


class ServerSetting(Model):
    """A setting an admin changes while the server runs, kept across restarts: the message of the
    day set with `motd set` (world/motd.py). One row per key; who set it last, and when."""

    id = fields.IntField(primary_key=True)
    key = fields.CharField(max_length=64, unique=True)
    value = fields.TextField()
    by = fields.CharField(max_length=NAME_LENGTH, default="")
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "server_setting"


class NewsItem(Model):
    """A piece of news an admin posted (`news post TITLE | TEXT`: world/news.py)."""

    id = fields.IntField(primary_key=True)
    title = fields.CharField(max_length=200)
    text = fields.TextField()
    by = fields.CharField(max_length=NAME_LENGTH, default="")  # the admin's name when posted
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "news_item"


class NewsRead(Model):
    """An account has read a piece of news: it no longer counts as unread at login."""

    id = fields.IntField(primary_key=True)
    account = fields.ForeignKeyField("models.Account", related_name="news_read", on_delete=fields.CASCADE)
    item = fields.ForeignKeyField("models.NewsItem", related_name="read_by", on_delete=fields.CASCADE)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "news_read"
        unique_together = (("account", "item"),)


class BoardNote(Model):
    """A note on the board (`board post TEXT`), or a reply to one (``parent`` set): notes and
    replies share one numbering, so `board read N` and `board delete N` take either
    (world/board.py). An account's notes go with the account."""

    id = fields.IntField(primary_key=True)
    author = fields.ForeignKeyField("models.Account", related_name="board_notes", on_delete=fields.CASCADE)
    parent = fields.ForeignKeyField("models.BoardNote", related_name="replies", null=True,
                                    on_delete=fields.CASCADE)
    text = fields.TextField()  # cleaned like all player text; its length is board.note_length
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "board_note"


class ChannelMute(Model):
    """A moderator's `chanmute`: the account may not speak on the channel until ``until``."""

    id = fields.IntField(primary_key=True)
    account = fields.ForeignKeyField("models.Account", related_name="channel_mutes", on_delete=fields.CASCADE)
    channel = fields.CharField(max_length=16)
    until = fields.DatetimeField()
    by = fields.CharField(max_length=NAME_LENGTH)
    reason = fields.CharField(max_length=200, null=True)

    class Meta:
        table = "channel_mute"
        unique_together = (("account", "channel"),)


class Season(Model):
    """A rating season an admin started (`season new`: world/ratings.py), numbered by its id.
    Season 1 needs no row (it began with the server)."""

    id = fields.IntField(primary_key=True)
    started_at = fields.DatetimeField(auto_now_add=True)
    by = fields.CharField(max_length=NAME_LENGTH, default="")

    class Meta:
        table = "season"


class GameResult(Model):
    """How one seat ended one finished table: what `stats` counts and what the ratings were moved
    by (world/ratings.py). Written once per table, every seat in one transaction; a table with
    rows is rated (the (table, seat) pair is unique, so a second write cannot double a result)."""

    id = fields.IntField(primary_key=True)
    table = fields.ForeignKeyField("models.GameTable", related_name="results", on_delete=fields.CASCADE)
    seat = fields.IntField()
    game = fields.CharField(max_length=32)
    season = fields.IntField()
    account = fields.ForeignKeyField("models.Account", related_name="results", null=True,
                                     on_delete=fields.SET_NULL)
    bot_level = fields.CharField(max_length=16, null=True)  # a bot's seat: rated per level
    side = fields.CharField(max_length=32, null=True)  # a Mafia faction, a «Шептуны» side
    role = fields.CharField(max_length=32, null=True)  # a Mafia role
    rank = fields.IntField()  # the place, 0 the best
    won = fields.BooleanField()
    seconds = fields.FloatField(null=True)  # from the start to the finish
    with_bots = fields.BooleanField()  # a bot sat at the table: not in `top GAME humans`
    finished_at = fields.DatetimeField()

    class Meta:
        table = "game_result"
        unique_together = (("table", "seat"),)
        # `stats` (world/ratings.py) groups an account's results (of one game, one season) by side
        # and role: every column it reads is in the index, so the database never visits the rows
        # (a busy player has thousands: bench/history_scale.py).
        indexes = (("account_id", "game", "season", "side", "role", "won", "with_bots", "seconds"),)


class Rating(Model):
    """One player's (an account's or a bot level's) openskill rating in one game and season, in
    one pool: ``all`` games, or only ``humans`` games (no bot at the table)."""

    id = fields.IntField(primary_key=True)
    season = fields.IntField()
    game = fields.CharField(max_length=32)
    pool = fields.CharField(max_length=8)  # all | humans
    player = fields.CharField(max_length=40)  # "a:<account id>" | "b:<bot level>"
    account = fields.ForeignKeyField("models.Account", related_name="ratings", null=True,
                                     on_delete=fields.CASCADE)
    bot_level = fields.CharField(max_length=16, null=True)
    mu = fields.FloatField()
    sigma = fields.FloatField()
    ordinal = fields.FloatField()  # mu - 3 sigma: what the leaderboard sorts by
    games = fields.IntField(default=0)
    wins = fields.IntField(default=0)

    class Meta:
        table = "rating"
        unique_together = (("season", "game", "pool", "player"),)
        indexes = (("season", "game", "pool", "ordinal"),)
