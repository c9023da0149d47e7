"""Coup's treasury (../shared/rules/coup.md #3, revised 2026-12-01): how many coins the box holds,
and what a payment from the treasury gives once it runs low.

The box holds 50 coins (the 000 box), 75 for the optional 9-10 player table; a payment gives
what is asked or, when the treasury holds less, all that is left, so nobody ever reads a
negative treasury. Coins are conserved either way: players + treasury = the box.

Plain Python (not compiled with the engine, see setup.py's COMPILED); pure like the engine.
"""
from __future__ import annotations

BOX_COINS = 50  # 2-8 players: the 000 box
BOX_COINS_HUGE = 75  # 9-10 players (#3 revised: 75)
HUGE_TABLE = 9  # from this many seats the bigger box is used

# A table pins the revision of these rules it started with (option ``treasury_rev``, set by
# Coup.start_options), so a game logged before the revision replays as it was played: revision 1
# counted 54 coins at 7-8 players and 60 at 9-10, and paid whatever was asked.
REVISION = 2
LEGACY_REVISION = 1
REVISIONS = (LEGACY_REVISION, REVISION)


def box_coins(seats: int, revision: int = REVISION) -> int:
    """All the coins of a game with ``seats`` players (dealt + treasury)."""
    if revision == LEGACY_REVISION:
        return 60 if seats >= HUGE_TABLE else 54 if seats >= 7 else BOX_COINS
    return BOX_COINS_HUGE if seats >= HUGE_TABLE else BOX_COINS


def payout(treasury: int, asked: int) -> int:
    """What a payment of ``asked`` coins from a treasury holding ``treasury`` gives: all of it,
    or what is left (never less than nothing)."""
    if asked <= treasury:
        return asked
    return treasury if treasury > 0 else 0
