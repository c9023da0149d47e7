"""Forum Mafia verbs: the seat a verb acts for, and players found by name or public role."""
from __future__ import annotations


from games.mafia import roles as R
from games.mafia import versions as V
from world.presenters import mafia as P
from world.presenters.mafia_names import fold_name

from .seat import GameSeat
from .mafia_words import GAME, SELF_WORDS, fold


def match_public(word: str, names: list[str], shortest_start: int = 1) -> tuple[int | None, int]:
    """Which of the public-role names at a table (as written at sign-up) ``word`` means: the
    one equal in any case, else the one equal with ё read as е (players type «Елка» for «Ёлка»),
    else the only one it starts (from ``shortest_start`` letters). Returns (its index or None,
    how many names it starts)."""
    word = " ".join(word.split())
    for same in (str.casefold, fold_name):
        hits = [i for i, n in enumerate(names) if n and same(n) == same(word)]
        if len(hits) == 1:
            return hits[0], 1
    folded = fold_name(word)
    starts = [i for i, n in enumerate(names) if n and fold_name(n).startswith(folded)] \
        if len(folded) >= max(1, shortest_start) else []
    return (starts[0] if len(starts) == 1 else None), len(starts)

# -- the seat --------------------------------------------------------------------------------

class Seat(GameSeat):
    """This player's seat at a running Mafia table: its view and legal actions right now."""

    game = GAME
    trim = ",.;:!?"

    @property
    def role(self) -> str:
        return self.view.get("role", "")

    @property
    def public_key(self) -> str:
        item = P.at_seat(self.view, "public_roles", self.number) or {}
        return item.get("key", R.OTHER)

    @property
    def version(self) -> str:
        return P.view_version(self.view)

    @property
    def rules(self) -> V.Ruleset:
        return V.RULESETS.get(self.version, V.C)

    @property
    def own(self) -> list[str]:
        return P.ordered_abilities(self.role, self.view.get("abilities") or (), self.version)

    def spec(self, key: str) -> R.Ability | None:
        return P.view_spec(self.view, key)

    def names(self, seats: list[int]) -> str:
        return ", ".join(self.table.seats[s].name for s in seats if s < len(self.table.seats)) or "-"

    def living(self) -> list[int]:
        return [s for s in range(len(self.table.seats)) if P.at_seat(self.view, "alive", s, True)]

    def targets(self, key: str) -> list[int]:
        """Seats ``legal`` offers as targets of this ability now (vote, mail, or an order)."""
        out = []
        for action in self.legal:
            kind = action.get("type")
            if (kind == key or (kind == "order" and action.get("ability") == key)) \
                    and isinstance(action.get("target"), int) and action["target"] not in out:
                out.append(action["target"])
        return out

    # players
    def find_player(self, word: str, preferred: list[int]) -> int | None:
        """As every game's (first among ``preferred``, then the living, then anyone; a name in
        another case by its stem), else by the public role's name, else a word for oneself."""
        found = super().find_player(word, preferred)
        word = word.lstrip("@").strip(self.trim)
        if found is None and word:
            found = self._public(word)
        if found is None and word and fold(word) in SELF_WORDS:
            found = self.number
        return found

    def _pools(self, preferred: list[int]) -> tuple[list[int], ...]:
        return preferred, self.living(), [s.number for s in self.table.seats]

    def _public(self, word: str) -> int | None:
        names = [P.public_name(self.view, s) for s in range(len(self.table.seats))]
        found, starts = match_public(word, names, shortest_start=2)
        if found is not None:
            return found
        listed = P.public_key_of(word)  # "Highlander" for the seat signed up as «Горец»
        keyed = [s for s in range(len(names)) if listed is not None and P.public_key_at(self.view, s) == listed]
        return keyed[0] if len(keyed) == 1 and not starts else None

    def is_me(self, word: str) -> bool:
        word = word.lstrip("@")
        return fold(word) in SELF_WORDS or word.casefold() == self.table.seats[self.number].name.casefold()
