"""`stats [NAME] [GAME]` (`статистика`): a player's results per game, by side and role;
`top GAME [humans]` (`лучшие`): a game's leaderboard, a page at a time; `season` (`сезон`):
the rating season, and `season new` (`сезон новый`, admins) to start the next one. Either list
reads an old season with ``season N`` (``сезон N``). The ratings shown in `finger` come from here too.

What is counted and how ratings move: world/ratings.py.
"""
from __future__ import annotations

from world import ratings
from world.audit import audit
from world.broken_tables import game_name
from world.messages import Msg, msg
from world.models import Account, Rating
from world.paging import Page

from .admin_info import utc_time
from .base import CommandError, Ctx, command
from .listing import number_of, require_admin, show_page
from .names import find_account
from .table import GAME_ALIASES

SEASON_WORDS = frozenset({"season", "сезон"})
HUMANS_WORDS = frozenset({"humans", "people", "люди", "людей", "живые", "живі"})
NEW_WORDS = frozenset({"new", "новый", "новий", "start", "начать", "почати"})
# How a side or a role of a game is named (the games' own catalog keys).
SIDE_KEYS = {"mafia": "mafia.faction.", "whispers": "whispers.role."}
ROLE_KEYS = {"mafia": "mafia.role_name."}
# The prefix of the leaderboard's page keys (commands/listing.py show_page adds .list_header...).
TOP_LIST = "ratings." + "top"


def _game_of(word: str) -> str | None:
    from games import registry
    name = GAME_ALIASES.get(word.casefold(), word.casefold())
    return name if registry.get(name) is not None else None


def _season_arg(words: list[str]) -> tuple[list[str], int | None]:
    """The words less a ``season N`` among them, and N (None: none typed)."""
    for i, word in enumerate(words[:-1]):
        if word.casefold() in SEASON_WORDS:
            number = number_of(words[i + 1])
            if number is None or number < 1:
                raise CommandError("ratings.bad_season", typed=words[i + 1])
            return words[:i] + words[i + 2:], number
    return words, None


async def _check_season(number: int) -> None:
    current = await ratings.current_season()
    if number > current:
        raise CommandError("ratings.no_season", number=number, current=current)


def _provisional(ctx: Ctx) -> int:
    return int(ctx.world.config.section("ratings").get("provisional_games", 5))


@command("stats", "статистика", "стат", completes=("player",))
async def stats(ctx: Ctx) -> None:
    words, season = _season_arg(list(ctx.args))
    if season is not None:
        await _check_season(season)
    game = None
    if words and _game_of(words[-1]) is not None and (len(words) == 2 or len(words) == 1):
        game = _game_of(words[-1])
        words = words[:-1]
    if len(words) > 1:
        raise CommandError("help.usage.stats")
    target: Account = await find_account(ctx, words[0]) if words else ctx.account
    found = await ratings.stats_of(target.id, game, season)
    if season is None:
        ctx.reply("ratings.stats_header", name=target.name)
    else:
        ctx.reply("ratings.stats_header_season", name=target.name, season=season)
    if not found:
        ctx.reply("ratings.stats_none")
        return
    for entry in found:
        if entry.seconds is None:
            ctx.reply("ratings.stats_game", game=game_name(entry.game), played=entry.played, won=entry.won,
                      bots=entry.with_bots)
        else:
            ctx.reply("ratings.stats_game_length", game=game_name(entry.game), played=entry.played,
                      won=entry.won, bots=entry.with_bots, seconds=int(entry.seconds))
        for split in entry.sides:  # each side, and under it the roles played on it
            ctx.reply("ratings.stats_side", label=_label(SIDE_KEYS, entry.game, split.label),
                      played=split.played, won=split.won)
            for role in (r for r in entry.roles if r.side == split.label):
                ctx.reply("ratings.stats_role", label=_label(ROLE_KEYS, entry.game, role.label),
                          played=role.played, won=role.won)


def _label(keys: dict[str, str], game: str, label: str) -> Msg | str:
    prefix = keys.get(game)
    return msg(prefix + label) if prefix else label


@command("top", "лучшие", "найкращі", "рейтинг")
async def top(ctx: Ctx) -> None:
    words, season = _season_arg(list(ctx.args))
    if not words:
        raise CommandError("help.usage.top")
    game = _game_of(words[0])
    if game is None:
        raise CommandError("ratings.unknown_game", typed=words[0])
    humans, page_number = False, 1
    for word in words[1:]:
        if word.casefold() in HUMANS_WORDS:
            humans = True
        elif number_of(word) is not None and number_of(word) >= 1:
            page_number = number_of(word)
        else:
            raise CommandError("help.usage.top")
    if season is None:
        season = await ratings.current_season()
    else:
        await _check_season(season)
    size = int(ctx.world.config.section("ratings").get("top_page", 20))
    rows, total = await ratings.leaderboard(game, season, humans, page_number, size)
    page = Page(rows, page_number, max(1, -(-total // size)), total)
    ctx.reply("ratings.top_humans" if humans else "ratings.top_all", game=game_name(game), season=season)
    first = (page_number - 1) * size + 1
    show_page(ctx, TOP_LIST, page, [_top_line(ctx, first + i, row) for i, row in enumerate(rows)])


def _who(row: Rating) -> Msg | str:
    if row.bot_level is not None:
        return msg("ratings.bot", level=msg(f"ratings.bot_level.{row.bot_level}"))
    return row.account.name if row.account is not None else "?"


def _top_line(ctx: Ctx, place: int, row: Rating) -> Msg:
    key = "ratings.top_line_provisional" if row.games < _provisional(ctx) else "ratings.top_line"
    return msg(key, place=place, name=_who(row), rating=ratings.shown(row.ordinal), games=row.games,
               wins=row.wins)


async def show_ratings(ctx: Ctx, target: Account) -> None:
    """`finger`'s lines: the player's ratings of this season, per game."""
    season = await ratings.current_season()
    rows = await ratings.ratings_of(target.id, season)
    if not rows:
        return
    ctx.reply("ratings.finger_header", season=season)
    for row in rows:
        key = "ratings.finger_line_provisional" if row.games < _provisional(ctx) else "ratings.finger_line"
        ctx.reply(key, game=game_name(row.game), rating=ratings.shown(row.ordinal), games=row.games)


@command("season", "сезон")
async def season(ctx: Ctx) -> None:
    word = ctx.args[0].casefold() if ctx.args else ""
    if not word:
        current = await ratings.current_season()
        started = await ratings.season_started(current)
        if started is None:
            ctx.reply("ratings.season_first", season=current)
        else:
            ctx.reply("ratings.season_current", season=current, when=utc_time(started))
        return
    if word not in NEW_WORDS or len(ctx.args) > 1:
        raise CommandError("help.usage.season")
    require_admin(ctx, "ratings.season_admin_only")
    number = await ratings.new_season(ctx.account.name)
    audit("season_new", by=ctx.account.name, season=number)
    ctx.reply("ratings.season_started", season=number, previous=number - 1)
