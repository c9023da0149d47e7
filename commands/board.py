"""`board` (`доска`, `дошка`): short notes players post and read, with replies.

    board [PAGE]          the notes, newest first, a page at a time
    board read N          a note with its replies (N may be a reply's number: its note)
    board post TEXT       a new note
    board reply N TEXT    a reply to note N
    board delete N        one's own note or reply; a moderator's: anyone's (audited)

Limits, flood guard and what ignoring hides: world/board.py.
"""
from __future__ import annotations

from world import board
from world.audit import audit
from world.inbox import stamp as inbox_time
from world.messages import msg
from world.models import BoardNote

from .base import ROLE_RANK, CommandError, Ctx, command
from .hall import check_muted
from .listing import DELETE_WORDS, POST_WORDS, number_of, show_page, subcommand, unknown_word

READ_WORDS = frozenset({"read", "show", "читать", "прочитать", "показать", "читати", "прочитати", "показати"})
REPLY_WORDS = frozenset({"reply", "answer", "re", "ответить", "ответ", "відповісти", "відповідь"})


def _limits(ctx: Ctx) -> board.Limits:
    return board.Limits.of(ctx.world.config.section("board"))


async def _ignored(ctx: Ctx) -> frozenset[int]:
    return await ctx.world.social.ignoring(ctx.account.id)


@command("board", "доска", "дошка", "записки")
async def board_(ctx: Ctx) -> None:
    word, folded, rest = subcommand(ctx)
    if not word:
        await _list(ctx, 1)
    elif number_of(word) is not None:
        await _list(ctx, number_of(word) or 0)
    elif folded in READ_WORDS:
        await _read(ctx, rest)
    elif folded in POST_WORDS:
        await _post(ctx, rest, None)
    elif folded in REPLY_WORDS:
        number, _, text = rest.partition(" ")
        if number_of(number) is None:
            raise CommandError("board.reply_usage")
        await _post(ctx, text.strip(), number_of(number))
    elif folded in DELETE_WORDS:
        await _delete(ctx, rest)
    else:
        raise unknown_word(ctx, word, READ_WORDS | POST_WORDS | REPLY_WORDS | DELETE_WORDS, "board.usage")


def _line(note: BoardNote) -> dict:
    return {"number": note.id, "name": note.author.name, "when": inbox_time(note.created_at)}


async def _list(ctx: Ctx, number: int) -> None:
    if number < 1:
        raise CommandError("board.usage")
    page = await board.page(number, _limits(ctx).page_size, await _ignored(ctx))
    show_page(ctx, "board", page, (
        msg("board.list_line", text=board.preview(listed.note.text),
            replies=msg("board.replies", n=listed.replies) if listed.replies else "", **_line(listed.note))
        for listed in page.items))


async def _find(ctx: Ctx, word: str, usage: str) -> BoardNote:
    number = number_of(word)
    if number is None:
        raise CommandError(usage)
    note = await board.find(number, await _ignored(ctx))
    if note is None:
        raise CommandError("board.no_such", number=number)
    return note


async def _read(ctx: Ctx, rest: str) -> None:
    note = await _find(ctx, rest.split(" ")[0], "board.read_usage")
    thread = await board.thread(note, await _ignored(ctx))
    ctx.reply("board.note", text=thread.note.text, **_line(thread.note))
    for reply in thread.replies:
        ctx.reply("board.reply_line", text=reply.text, **_line(reply))
    if not thread.replies:
        ctx.reply("board.no_replies", number=thread.note.id)


async def _post(ctx: Ctx, text: str, reply_to: int | None) -> None:
    limits = _limits(ctx)
    if not text:
        raise CommandError("board.reply_usage" if reply_to is not None else "board.post_usage")
    check_muted(ctx)  # a note is public text: no way round a mute
    if len(text) > limits.note_length:
        raise CommandError("board.too_long", limit=limits.note_length, length=len(text))
    parent = None
    if reply_to is not None:
        parent = await _find(ctx, str(reply_to), "board.reply_usage")
        if parent.parent is not None:  # a reply to a reply joins the note's thread
            parent = parent.parent
            await parent.fetch_related("author")
    wait = ctx.world.board_guard.wait_left(ctx.account.id, limits)
    if wait > 0:
        raise CommandError("board.flood", n=limits.posts_per_window, window=int(limits.post_window),
                           seconds=max(1, int(wait + 0.999)))
    note = await board.post(ctx.account, text, parent)
    ctx.world.board_guard.posted(ctx.account.id)
    if parent is None:
        ctx.reply("board.posted", number=note.id)
        return
    ctx.reply("board.replied", number=note.id, note=parent.id)
    author = parent.author
    if author.id != ctx.account.id and not await ctx.world.social.ignores(author.id, ctx.account.id):
        ctx.world.deliver(author.id, msg("board.reply_to_you", name=ctx.account.name, note=parent.id,
                                         text=board.preview(text)))


async def _delete(ctx: Ctx, rest: str) -> None:
    note = await _find(ctx, rest.split(" ")[0], "board.delete_usage")
    own = note.author_id == ctx.account.id
    if not own and ROLE_RANK.get(ctx.account.role, 0) < ROLE_RANK["moderator"]:
        raise CommandError("board.not_yours", number=note.id, name=note.author.name)
    replies = await board.delete(note)
    if not own:
        audit("board_delete", by=ctx.account.name, name=note.author.name, number=note.id,
              reply_to=note.parent_id, text=note.text)
        ctx.world.deliver(note.author_id, msg("board.deleted_yours", number=note.id, by=ctx.account.name))
    if replies:
        ctx.reply("board.deleted_with_replies", number=note.id, n=replies)
    else:
        ctx.reply("board.deleted", number=note.id)
