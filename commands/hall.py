"""The hall: look, who, say, emote, tell, lang, encoding, color, help, rules, quit."""
from __future__ import annotations

from datetime import datetime, timezone

from games.collation import name_key as reading_order
from world.hub import HALL
from world.i18n import LANGUAGES, has, normalize_lang
from world.messages import msg
from world.models import Account

from . import elsewhere
from .admin_info import session_doors
from .base import EVERYWHERE, CommandError, Ctx, command
from .names import find_account
from .parser import available, resolve

ENCODING_NAMES = {"utf-8": "utf-8", "utf8": "utf-8", "cp1251": "cp1251", "windows-1251": "cp1251",
                  "1251": "cp1251", "koi8-r": "koi8-r", "koi8r": "koi8-r", "koi8": "koi8-r",
                  "koi8-u": "koi8-u", "koi8u": "koi8-u"}
ON = {"on", "вкл", "да", "yes", "1", "увімк", "так"}
OFF = {"off", "выкл", "нет", "no", "0", "вимк", "ні"}


def check_muted(ctx: Ctx) -> None:
    until = ctx.account.muted_until
    if until is not None and until > datetime.now(timezone.utc):
        raise CommandError("mod.you_are_muted", minutes=max(1, int((until - datetime.now(timezone.utc)).total_seconds() // 60) + 1))


def _idle(seconds: float):
    seconds = int(seconds)
    if seconds < 60:
        return msg("who.idle_s", n=seconds)
    if seconds < 3600:
        return msg("who.idle_m", n=seconds // 60)
    return msg("who.idle_h", n=seconds // 3600, m=f"{(seconds % 3600) // 60:02d}")


def where_text(ctx: Ctx, account_id: int):
    room = ctx.world.where(account_id)
    if room == HALL:
        return msg("where.hall")
    table = ctx.world.tables.table_of(account_id) if ctx.world.tables else None
    if table is None:
        return msg("where.hall")
    if account_id in table.watchers:
        return msg("where.watching", number=table.number)
    return msg("where.table", number=table.number)


@command("look", "l", "смотреть", "осмотреться", "оглядеться", "о", "дивитися")
async def look(ctx: Ctx) -> None:
    world = ctx.world
    table = ctx.table
    asked = ctx.args[0].lstrip("#№") if ctx.args else ""
    if asked.isdigit() and (table is None or table.number != int(asked)):
        from .table import show_table_from_afar  # `look 3`: another table, seen from here

        show_table_from_afar(ctx, int(asked))
        return
    if table is None:
        ctx.reply("hall.look_title")
        ctx.reply("hall.look_text")
        others = [a.name for a in world.in_room(HALL) if a.id != ctx.account.id]
        elsewhere_people = await elsewhere.others_online(ctx) or []  # the hall of the other nodes too
        others += [e["name"] for _, e in elsewhere_people if e.get("table") is None and e["id"] != ctx.account.id]
        if elsewhere_people:
            others.sort(key=reading_order)
        ctx.reply("hall.look_people", n=len(others), names=", ".join(others))
        tables = world.tables.listing() if world.tables else []
        more = await elsewhere.others_tables(ctx, {t.number for t in tables}) or []
        ctx.reply("hall.look_tables", n=len(tables) + len(more))
        return
    from .table import show_table

    show_table(ctx, table)


@command("who", "кто", "хто", "игроки")
async def who(ctx: Ctx) -> None:
    world = ctx.world
    cluster = world.cluster
    rows = []  # (name, who.line's parameters, the admin's doors line): this node's, then the others'
    for account in world.online_accounts():
        doors = session_doors(ctx, account.id)  # an admin's list: each session's door and address
        if doors is not None and cluster is not None:
            doors = elsewhere.doors(ctx, cluster.node, [[s.kind, s.address] for s in world.by_account[account.id]])
        rows.append((account.name, {"name": world.social.who_name(account), "where": where_text(ctx, account.id),
                                    "idle": _idle(world.idle_seconds(account.id)), "role": account.role}, doors))
    others = await elsewhere.others_online(ctx)
    for node, entry in others or ():
        rows.append((entry["name"], {"name": elsewhere.who_name(entry), "where": elsewhere.where(entry),
                                     "idle": _idle(elsewhere.idle_seconds(entry)), "role": entry["role"]},
                     elsewhere.doors(ctx, node, entry.get("doors") or [])))
    if others:
        rows.sort(key=lambda row: reading_order(row[0]))  # «Ёлка» before «Жаба», whatever the node
    ctx.reply("who.header", n=len(rows))
    for _, line, doors in rows:
        role = line.pop("role")
        ctx.reply("who.line", role=msg(f"role.{role}") if role != "player" else "", **line)
        if doors is not None:
            ctx.reply_msg(doors)
    if others is None:
        ctx.reply("cluster.others_unreachable")


@command("say", "сказать", "говорить", "сказ", "казати")
async def say(ctx: Ctx) -> None:
    text = ctx.rest
    if not text:
        raise CommandError("say.what")
    check_muted(ctx)
    check_silenced(ctx)
    room = ctx.world.where(ctx.account.id)
    ctx.reply("say.you", text=text)
    line = msg("say.other", name=ctx.account.name, text=text)
    await ctx.world.speak_in(room, line, exclude=[ctx.account.id], speaker=ctx.account.id)
    ctx.world.scrollback.add(room, ctx.account.id, line)  # `recall` (world/scrollback.py)


@command("emote", "эмоция", "действие", "емоція", "me")
async def emote(ctx: Ctx) -> None:
    text = ctx.rest
    if not text:
        raise CommandError("emote.what")
    check_muted(ctx)
    check_silenced(ctx)
    room = ctx.world.where(ctx.account.id)
    line = msg("emote.line", name=ctx.account.name, text=text)
    await ctx.world.speak_in(room, line, speaker=ctx.account.id)
    ctx.world.scrollback.add(room, ctx.account.id, line)


def check_silenced(ctx: Ctx) -> None:
    """A game may silence a seat at its table (Mafia: the dead do not speak)."""
    table = ctx.table
    if table is None or not table.running or table.game is None:
        return
    seat = table.seat_of(ctx.account.id)
    silenced = getattr(table.engine, "silenced", None)
    if seat is not None and silenced is not None and silenced(table.game, seat):
        raise CommandError("say.silenced")


@command("tell", "шепнуть", "шепнути", "личное", "whisper", "ш", completes=("player",))
async def tell(ctx: Ctx) -> None:
    name, _, text = ctx.rest.partition(" ")
    text = text.strip()
    if not name or not text:
        raise CommandError("tell.usage")
    await tell_to(ctx, await find_account(ctx, name), text)


async def tell_to(ctx: Ctx, target: Account, text: str) -> None:
    """A tell to an account (`tell`, and `reply`: commands/social.py)."""
    check_muted(ctx)
    if target.id == ctx.account.id:
        raise CommandError("tell.self")
    if await ctx.world.social.ignores(ctx.account.id, target.id):  # their answer would not reach you
        raise CommandError("social.ignore.tell_ignored", name=target.name)
    table = ctx.table
    if table is not None and table.running and table.seat_of(ctx.account.id) is not None \
            and table.seat_of(target.id) is not None and not table.options.get("tell", True):
        raise CommandError("tell.not_during_game")
    line = msg("tell.from", name=ctx.account.name, text=text)
    # Online on another node: that node delivers it and sends back any away notice.
    other_node = ctx.world.cluster is not None and not ctx.world.is_online(target.id) \
        and await ctx.world.cluster.tell(ctx.account, target, line)
    online = other_node or await ctx.world.social.deliver_tell(ctx.world, ctx.account, target, line)
    if online:
        ctx.reply("tell.to", name=target.name, text=text)
    else:
        ctx.reply("tell.kept", name=target.name)
    away = None if other_node else ctx.world.social.away_notice(target)
    if away is not None:
        ctx.reply_msg(away)


@command("lang", "язык", "мова", "language")
async def lang(ctx: Ctx) -> None:
    code = normalize_lang(ctx.args[0]) if ctx.args else None
    if code is None:
        raise CommandError("lang.usage", current=ctx.session.lang, choices=", ".join(LANGUAGES))
    ctx.session.lang = code
    ctx.account.lang = code
    await ctx.account.save(update_fields=["lang"])
    ctx.reply("lang.set")


@command("encoding", "кодировка", "кодування", "charset")
async def encoding(ctx: Ctx) -> None:
    if not ctx.args:
        ctx.reply("encoding.current", encoding=ctx.session.encoding)
        return
    choice = ENCODING_NAMES.get(ctx.args[0].lower())
    if choice is None:
        raise CommandError("encoding.usage")
    ctx.session.set_encoding(choice)
    ctx.session.encoding_known = True
    ctx.account.encoding = choice
    await ctx.account.save(update_fields=["encoding"])
    ctx.reply("encoding.set", encoding=choice)


@command("color", "colour", "цвет", "колір")
async def color(ctx: Ctx) -> None:
    word = ctx.args[0].lower() if ctx.args else ""
    if word in ON:
        value: bool | None = True
    elif word in OFF:
        value = False
    elif word in ("auto", "авто"):
        value = None
    else:
        raise CommandError("color.usage", state=msg("color.on" if ctx.session.color else "color.off"))
    ctx.session.color_override = value
    ctx.account.color = value
    await ctx.account.save(update_fields=["color"])
    ctx.reply("color.set", state=msg("color.on" if ctx.session.color else "color.off"))


UKRAINIAN_ONLY = set("іїєґ")
UKRAINIAN_VERBS = {"хто", "казати", "шепнути", "пошта", "мова", "кодування", "колір", "допомога", "вихід",
                   "столи", "відкрити", "сісти", "спостерігати", "піти", "почати", "боти", "карти",
                   "вигнати", "заблокувати", "розбанити", "заглушити", "розглушити", "оголосити",
                   "вимкнути", "дивитися", "емоція", "ключі", "податок", "вкрасти", "вбити", "допит",
                   "заявити", "виклик", "блокувати", "пропустити", "довести", "здатися", "скинути",
                   "залишити", "показати", "повернути", "вибрати", "дохід", "іноземна", "обмін",
                   "покласти", "передати", "скасувати", "готовий", "клас", "скинутипароль", "слухати",
                   "балакати", "балачки", "канали", "заглушити канал", "розглушити канал"}
UKRAINIAN_VERBS |= {"дошка", "новини", "оголошення"}  # the board, news, motd (commands/board.py, commands/news.py)


def main_verbs(cmd, lang: str) -> list[str]:
    """The verbs `help` lists: the English key and the first verb of the player's language."""
    cyrillic = [v for v in cmd.aliases if any("а" <= ch.lower() <= "я" or ch in "іїєґё" for ch in v)]
    ukrainian = [v for v in cyrillic if v in UKRAINIAN_VERBS or UKRAINIAN_ONLY & set(v)]
    russian = [v for v in cyrillic if v not in ukrainian]
    local = (ukrainian or russian) if lang == "uk" else russian if lang == "ru" else []
    return [cmd.key, *local[:1]] if local else [cmd.key, *cyrillic[:1]] if lang != "en" else [cmd.key]


@command("help", "помощь", "справка", "допомога", "?", completes=("command",))
async def help_(ctx: Ctx) -> None:
    commands = available(ctx.session)
    if not ctx.args:
        from .help_order import grouped

        ctx.reply("help.first")
        ctx.reply("help.header")
        for group, members in grouped(commands):
            ctx.reply(f"help.group.{group}")
            for cmd in members:
                ctx.reply("help.line", verbs=", ".join(main_verbs(cmd, ctx.lang)),
                          text=msg(f"help.short.{cmd.key}"))
        ctx.reply("help.footer")
        return
    topic = ctx.args[0]
    if has(f"help.topic.{topic.lower()}"):
        ctx.reply(f"help.topic.{topic.lower()}")
        return
    cmd, suggestions = resolve(topic, commands)
    if cmd is None:
        from .base import REGISTRY
        cmd, _ = resolve(topic, REGISTRY)
    if cmd is None:
        if not suggestions:
            raise CommandError("help.unknown_plain", topic=topic)
        raise CommandError("help.unknown", topic=topic, suggestions=", ".join(suggestions))
    ctx.reply("help.command", verbs=", ".join(cmd.verbs), text=msg(f"help.short.{cmd.key}"),
              usage=msg(f"help.usage.{cmd.key}"))


@command("rules", "правила")
async def rules(ctx: Ctx) -> None:
    from games import registry

    from . import rules_sections as rule_sections

    games = sorted(registry.all_games())
    table = ctx.table
    if not ctx.args:
        if table is None or table.game_name not in games:
            ctx.reply("rules.list", games=", ".join(games))
            return
        name = table.game_name  # at a table (seated or watching): its game's rules, then the list
    else:
        from .table import GAME_ALIASES  # the names `open` accepts, in every language

        name = ctx.args[0].lower()
        name = GAME_ALIASES.get(name, name)
        if name not in games:
            raise CommandError("rules.unknown", game=ctx.args[0], games=", ".join(games))
    key = name
    versions = RULE_VERSIONS.get(name)
    words = ctx.args[1:]
    if versions and words and (len(words) > 1 or not rule_sections.find(ctx.lang, name, words[0])):
        word = words.pop(0).translate(LOOKALIKES).lower()  # `rules mafia A`: that version's text
        if word not in versions:
            raise CommandError("rules.unknown_version", game=ctx.args[0], word=ctx.args[1],
                               versions=", ".join(sorted(v.upper() for v in versions)))
        key = versions[word]
    elif versions:  # at a table of this game: the ruleset it plays
        if table is not None and table.game_name == name:
            played = str(table.options.get("ruleset") or table.options.get("version") or "").lower()
            key = versions.get(played, key)
    if words:  # `rules coup commands`: those sections only
        found = rule_sections.find(ctx.lang, key, words[0])
        if not found:
            raise CommandError("rules.unknown_section", game=ctx.args[0], word=words[0],
                               sections=rule_sections.listing(ctx.lang, key) or "-")
        for paragraph in found:
            ctx.reply("rules.part", text=paragraph)
        return
    listing = rule_sections.listing(ctx.lang, key)
    if listing:
        ctx.reply("rules.sections", game=ctx.args[0] if ctx.args else name, sections=listing)
    ctx.reply(f"rules.{key}")
    if versions:
        ctx.reply(f"rules.{name}_versions")
    if not ctx.args:
        ctx.reply("rules.list", games=", ".join(games))


# Games whose rules come in versions: `rules GAME VERSION` shows rules.<key> (the first is the
# game's own rules.<game>), then rules.<game>_versions (how to read the others). Cyrillic
# look-alikes (А, В, С; Б) count as the Latin letters.
RULE_VERSIONS = {"mafia": {"c": "mafia", "a": "mafia_a", "b": "mafia_b"}}
LOOKALIKES = str.maketrans("аАвВсСбБ", "aAbBcCbB")


@command("quit", "выход", "выйти", "вихід", "logout", "exit")
async def quit_(ctx: Ctx) -> None:
    await ctx.session.close(msg("quit.bye"))


__all__ = ["EVERYWHERE"]
