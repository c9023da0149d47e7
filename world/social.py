"""Safety and conversation between players: who ignores whom, who told you last, who is away.

- Ignoring (``ignore NAME``) is stored on the account (models.Ignore) and cached here per owner,
  loaded the first time a line could reach them. The commands that carry one player's text to
  another (say, emote, tell, a game's team channel) ask :meth:`Social.ignorers_among` or
  :meth:`Social.ignores` and leave the ignorers out; moderation notices and game moves never ask,
  so an ignored moderator's mute still reaches you, and an ignored player's moves still count.
- The last teller of an account is remembered in memory (also for tells kept while the account
  was away); after a restart the newest tell in the inbox stands in for it.
- Away (``afk``) lasts until the account types its next command.
"""
from __future__ import annotations

from typing import Iterable

from games.collation import name_key as reading_order

from .accounts import name_key
from .messages import Msg, msg
from .models import Account, Ignore, InboxItem

# How many accounts one account may ignore: a list longer than this is a sign of a script.
IGNORE_LIMIT = 200


class Social:
    def __init__(self) -> None:
        self._ignoring: dict[int, frozenset[int]] = {}  # owner id -> ids they ignore (loaded ones)
        self.last_teller: dict[int, int] = {}  # account id -> the id of who told them last
        self.away: dict[int, str] = {}  # account id -> the reason they gave ("" for none)

    # ignoring ---------------------------------------------------------------------------

    async def _load(self, owner_ids: Iterable[int]) -> None:
        missing = [a for a in set(owner_ids) if a not in self._ignoring]
        if not missing:
            return
        found: dict[int, set[int]] = {a: set() for a in missing}
        for owner_id, ignored_id in await Ignore.filter(owner_id__in=missing).values_list("owner_id", "ignored_id"):
            found[owner_id].add(ignored_id)
        for owner_id, ignored in found.items():
            self._ignoring[owner_id] = frozenset(ignored)

    async def ignoring(self, owner_id: int) -> frozenset[int]:
        await self._load([owner_id])
        return self._ignoring[owner_id]

    async def ignores(self, owner_id: int, sender_id: int) -> bool:
        return sender_id in await self.ignoring(owner_id)

    async def ignorers_among(self, sender_id: int, account_ids: Iterable[int]) -> set[int]:
        """Those of ``account_ids`` who ignore ``sender_id``: a line from the sender skips them."""
        ids = [a for a in account_ids if a != sender_id]
        await self._load(ids)
        return {a for a in ids if sender_id in self._ignoring[a]}

    async def ignore(self, owner_id: int, ignored_id: int) -> str:
        """Start ignoring: "added", "already" or "full"."""
        current = await self.ignoring(owner_id)
        if ignored_id in current:
            return "already"
        if len(current) >= IGNORE_LIMIT:
            return "full"
        await Ignore.get_or_create(owner_id=owner_id, ignored_id=ignored_id)
        self._ignoring[owner_id] = current | {ignored_id}
        return "added"

    async def unignore(self, owner_id: int, ignored_id: int) -> bool:
        """Stop ignoring; False if they were not ignored."""
        current = await self.ignoring(owner_id)
        if ignored_id not in current:
            return False
        await Ignore.filter(owner_id=owner_id, ignored_id=ignored_id).delete()
        self._ignoring[owner_id] = current - {ignored_id}
        return True

    async def ignored_names(self, owner_id: int) -> list[str]:
        ids = await self.ignoring(owner_id)
        return sorted(await Account.filter(id__in=list(ids)).values_list("name", flat=True), key=reading_order)

    # tells --------------------------------------------------------------------------------

    async def deliver_tell(self, world: object, sender: Account, target: Account, message: Msg) -> bool:
        """A tell from ``sender`` to ``target``: delivered (and kept in the inbox) unless the target
        ignores the sender, in which case it goes nowhere but reads to the sender exactly as if it
        had arrived. True if the target is online."""
        if await self.ignores(target.id, sender.id):
            return world.is_online(target.id)  # type: ignore[attr-defined]
        self.last_teller[target.id] = sender.id
        return await world.deliver_or_keep(target.id, message, "tell", keep=True)  # type: ignore[attr-defined]

    async def last_teller_of(self, account_id: int) -> Account | None:
        """Who told ``account_id`` something last: remembered since this server started, else the
        newest tell in their inbox (a tell names its sender; a renamed or deleted one is lost)."""
        teller_id = self.last_teller.get(account_id)
        if teller_id is not None:
            return await Account.get_or_none(id=teller_id)
        item = await InboxItem.filter(account_id=account_id, kind="tell").order_by("-id").first()
        name = item.params.get("name") if item is not None and isinstance(item.params, dict) else None
        if not isinstance(name, str):
            return None
        teller = await Account.get_or_none(name_key=name_key(name))
        if teller is not None:
            self.last_teller[account_id] = teller.id
        return teller

    # away ---------------------------------------------------------------------------------

    def go_away(self, account_id: int, reason: str) -> None:
        self.away[account_id] = reason

    def come_back(self, account_id: int) -> bool:
        """The account typed a command: no longer away. True if it was."""
        return self.away.pop(account_id, None) is not None

    def away_notice(self, account: Account) -> Msg | None:
        """What a teller hears when ``account`` is away, or None."""
        reason = self.away.get(account.id)
        if reason is None:
            return None
        return msg("social.afk.told_reason", name=account.name, reason=reason) if reason \
            else msg("social.afk.told", name=account.name)

    def who_name(self, account: Account) -> str | Msg:
        """The name as `who` shows it: marked while away."""
        return away_marked(account.name, self.away.get(account.id))


def away_marked(name: str, reason: str | None) -> str | Msg:
    """A name as `who` shows it, ``reason`` being the away reason ("" for none; None: not away);
    also for a player on another node (world/cluster/presence.py keeps the reason)."""
    if reason is None:
        return name
    return msg("social.afk.who_reason", name=name, reason=reason) if reason else msg("social.afk.who", name=name)
