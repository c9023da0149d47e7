"""Channels: out-of-character talk heard by everyone online who listens, in the hall and at tables.

- One channel today, ``chat`` (`chat TEXT` / `болтать ТЕКСТ` / `балакати ТЕКСТ`); the names here
  let more come without new commands for listing, leaving or muting.
- Everyone hears a channel until they leave it (`chat off`); the channels left are stored on the
  account (``Account.channels_off``) and cached here per account once read, so the choice holds
  on every door and after a restart.
- A moderator's mute on a channel (``ChannelMute``: until, by whom, why) stops the account
  speaking there; it still hears the channel. It is read from the database for each line spoken
  (a line spoken is rare next to lines heard).
- Who hears a line: the accounts online that listen, less those who ignore the speaker
  (world/social.py); the lines go to the channel's scrollback (world/scrollback.py).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

from .clock import as_utc, utcnow
from .models import Account, ChannelMute

CHANNELS = ("chat",)
# The words that name a channel, in every language (`recall chat`, `chanmute болтать NAME`).
CHANNEL_WORDS = {"chat": "chat", "ooc": "chat", "болтать": "chat", "болталка": "chat", "чат": "chat",
                 "балакати": "chat", "балачки": "chat"}


def channel_named(word: str) -> str | None:
    return CHANNEL_WORDS.get(word.casefold().replace("ё", "е"))


class Channels:
    def __init__(self) -> None:
        self._off: dict[int, frozenset[str]] = {}  # account id -> the channels it left (read ones)

    def channels_off(self, account: Account) -> frozenset[str]:
        known = self._off.get(account.id)
        if known is None:
            stored = account.channels_off if isinstance(account.channels_off, list) else []
            known = self._off[account.id] = frozenset(c for c in stored if c in CHANNELS)
        return known

    def listens(self, account: Account, channel: str) -> bool:
        return channel not in self.channels_off(account)

    async def set_listening(self, account: Account, channel: str, on: bool) -> bool:
        """Join (``on``) or leave a channel; False if that was already so."""
        current = self.channels_off(account)
        if (channel not in current) == on:
            return False
        new = current - {channel} if on else current | {channel}
        self._off[account.id] = new
        account.channels_off = sorted(new)
        await Account.filter(id=account.id).update(channels_off=sorted(new))
        return True

    def hearers(self, world: Any, channel: str) -> list[int]:
        """The accounts online that listen to ``channel`` (ignores are the caller's to apply)."""
        return [a.id for a in world.online_accounts() if self.listens(a, channel)]

    async def deliver(self, world: Any, channel: str, line: Any, speaker_id: int) -> None:
        """A line on ``channel`` to this node's hearers who do not ignore the speaker (the
        speaker's own node, and each other node for its own players: world/cluster/node.py)."""
        hearers = self.hearers(world, channel)
        ignorers = await world.social.ignorers_among(speaker_id, hearers)
        world.send_to_sessions(world.sessions_of(a for a in hearers if a not in ignorers), line)

    # mutes --------------------------------------------------------------------------------

    async def mute_of(self, account_id: int, channel: str) -> ChannelMute | None:
        """The mute in force on ``account_id`` for ``channel``, or None."""
        mute = await ChannelMute.get_or_none(account_id=account_id, channel=channel)
        if mute is None:
            return None
        return mute if as_utc(mute.until) > utcnow() else None

    async def mute(self, account_id: int, channel: str, until: datetime, by: str, reason: str | None) -> None:
        await ChannelMute.update_or_create(defaults={"until": until, "by": by, "reason": reason},
                                           account_id=account_id, channel=channel)

    async def unmute(self, account_id: int, channel: str) -> bool:
        """Lift a mute; False if none was in force."""
        in_force = await self.mute_of(account_id, channel) is not None
        await ChannelMute.filter(account_id=account_id, channel=channel).delete()
        return in_force

    async def mutes_of(self, account_id: int, channels: Iterable[str] = CHANNELS) -> dict[str, ChannelMute]:
        out = {}
        for channel in channels:
            mute = await self.mute_of(account_id, channel)
            if mute is not None:
                out[channel] = mute
        return out
