"""Forum Mafia verbs: a typed order, vote, letter or cancel read into an action."""
from __future__ import annotations

import re
from typing import Any

from games.mafia import roles as R
from games.mafia import versions as V
from world.presenters import mafia as P
from world.presenters import mafia_names as N
from world.text import clean

from ..base import CommandError
from .mafia_words import (
    ALL_WORDS, BAN_SEPARATORS, CITY_WORDS, CONNECTORS, maybe_key, abilities_vocab, fold, plays_vocab, roles_vocab,
)
from .mafia_seat import match_public, Seat

# -- parsing ---------------------------------------------------------------------------------

def parse_ability(seat: Seat, tokens: list[str], i: int = 0, allowed: Any = None) -> tuple[str, int]:
    """The ability the words at ``i`` name: among one's own abilities (or ``allowed``) first,
    then among all (an ability one does not have is refused clearly)."""
    vocab = abilities_vocab()
    own = list(allowed) if allowed is not None else seat.own
    keys, used, exact = vocab.match_exact(tokens, i, own)
    if allowed is None and not exact:  # a whole name of an ability one does not have
        other, other_used, other_exact = vocab.match_exact(tokens, i)
        if other_exact and len(other) == 1 and not other & set(own) and other_used >= used:
            raise CommandError("mafia.cmd.not_your_ability", ability=P.ability_name(other.pop()),
                               abilities=P.ability_list(own))
    if len(keys) == 1:
        return keys.pop(), used
    if keys:
        raise CommandError("mafia.cmd.ambiguous_ability", word=tokens[i],
                           abilities=P.ability_list(P.ordered_abilities(seat.role, keys, seat.version)))
    if allowed is not None:
        raise CommandError("mafia.cmd.bad_ability", word=tokens[i], abilities=P.ability_list(own),
                           maybe=maybe_key(tokens[i], vocab, own))
    keys, used = vocab.match(tokens, i)
    if len(keys) == 1:
        raise CommandError("mafia.cmd.not_your_ability", ability=P.ability_name(keys.pop()),
                           abilities=P.ability_list(own))
    raise CommandError("mafia.cmd.bad_ability", word=tokens[i], abilities=P.ability_list(own),
                       maybe=maybe_key(tokens[i], vocab, None))


def parse_role(tokens: list[str], i: int, allowed: Any = None, kind: str = "role") -> tuple[str, int]:
    """A secret role (``kind`` "role") or a persona ("persona") named at ``i`` (one or two words)."""
    vocab = roles_vocab()
    pool = tuple(allowed) if allowed is not None else (R.ROLE_ORDER if kind == "role" else R.PERSONAS)
    keys, used = vocab.match(tokens, i, pool)
    if len(keys) == 1:
        return keys.pop(), used
    names = P.role_list([k for k in R.PERSONAS if k in pool])
    if keys:
        raise CommandError(f"mafia.cmd.ambiguous_{kind}", word=tokens[i],
                           roles=P.role_list([k for k in R.PERSONAS if k in keys]))
    raise CommandError(f"mafia.cmd.bad_{kind}", word=tokens[i], roles=names, maybe=maybe_key(tokens[i], vocab, pool))


def _need(key: str, ability: str, **params: Any) -> CommandError:
    return CommandError(key, ability=P.ability_name(ability), **params)


def _skip_tokens(text: str, count: int) -> str:
    """``text`` after its first ``count`` arguments (as split_args splits them)."""
    pos = 0
    for n, m in enumerate(re.finditer(r'"[^"]*"|«[^»]*»|\S+', text)):
        if n == count:
            return text[m.start():]
        pos = m.end()
    return text[pos:] if count else text


def parse_use(seat: Seat, tokens: list[str], rest: str = "") -> dict[str, Any]:
    """`night ABILITY [TARGET] [ARGS]` (and `day ...`): the action it names."""
    if not tokens:
        raise CommandError("mafia.cmd.use_usage", abilities=P.ability_list(P.usable_now(seat.view)))
    key, used = parse_ability(seat, tokens)
    words = tokens[used:]
    if key == "vote":
        return parse_vote(seat, words)
    if key == "mail":
        return parse_mail(seat, _skip_tokens(rest, used) if rest else " ".join(words))
    if key == "card":
        return parse_card(seat, words)
    ab = seat.spec(key)
    if ab is None:  # pragma: no cover - every known key has a spec
        raise CommandError("mafia.error.no_such_ability", ability=P.ability_name(key))
    action: dict[str, Any] = {"type": "order", "ability": key}
    i = 0
    if ab.target == "self":
        if words and seat.is_me(words[0]):
            i = 1
        action["target"] = seat.number
    elif ab.target != "none":
        targets = seat.targets(key)
        if not words:
            pool = targets or [s for s in seat.living() if s != seat.number]
            raise _need("mafia.cmd.need_target", key, names=seat.names(pool))
        action["target"] = seat.player(words[0], targets)
        i = 1
    rules = seat.rules
    for arg in ab.args:
        if arg in (R.ARG_ROLE, R.ARG_ROLE_NONLAW):
            allowed = rules.non_law if arg == R.ARG_ROLE_NONLAW else rules.roles
            if i >= len(words):
                raise _need("mafia.cmd.need_role", key, roles=P.role_list(list(allowed)))
            action["role"], n = parse_role(words, i, allowed)
            i += n
        elif arg == R.ARG_PERSONA:
            if i >= len(words):
                raise _need("mafia.cmd.need_persona", key, roles=P.role_list(list(R.PERSONAS)))
            action["persona"], n = parse_role(words, i, kind="persona")
            i += n
        elif arg == R.ARG_PERSONAS2:
            picked = []
            while len(picked) < 2:
                while i < len(words) and fold(words[i]) in CONNECTORS:
                    i += 1
                if i >= len(words):
                    raise _need("mafia.cmd.need_personas", key, roles=P.role_list(list(R.PERSONAS)))
                persona, n = parse_role(words, i, kind="persona")
                picked.append(persona)
                i += n
            if picked[0] == picked[1]:
                raise _need("mafia.cmd.same_personas", key)
            action["personas"] = picked
        elif arg == R.ARG_PUBLIC and key == "bloodbath":
            action["public"], action["role"] = parse_bloodbath(seat, key, words[i:])
            i = len(words)
            break
        elif arg == R.ARG_PUBLIC:  # Биржа труда: a listed public role, in any language
            action["public"] = parse_listed_public(seat, key, words[i:])
            i = len(words)
        elif arg == R.ARG_BANS:
            action["bans"], n = parse_bans(key, words[i:], rules.bannable)
            i += n
        elif arg == V.ARG_TEXT:  # Звонок: the rest of the line, as typed
            text = clean(_skip_tokens(rest, used + i)).strip() if rest else " ".join(words[i:])
            if not text:
                raise _need("mafia.cmd.need_call_text", key)
            action["text"] = text
            i = len(words)
        elif arg == V.ARG_SEATS:
            action["seats"] = parse_seats(seat, key, words[i:])
            i = len(words)
        elif arg == V.ARG_MAPPING:
            action["mapping"] = parse_mapping(seat, key, words[i:])
            i = len(words)
    if i < len(words):
        raise CommandError("mafia.cmd.extra", words=" ".join(words[i:]))
    return action


def _plays() -> Any:
    return P.nested_list([N.play_name(p) for p in V.PLAYS])


def parse_card(seat: Seat, words: list[str]) -> dict[str, Any]:
    """The Ход (A): `ход пас ИМЯ`, `ход банк`, `ход блеф ЛИЧИНА`, `ход вист|мизер|даве|фолд`."""
    if not words:
        raise _need("mafia.cmd.need_play", "card", plays=_plays())
    keys, n = plays_vocab().match(words, 0)
    if len(keys) != 1:
        raise CommandError("mafia.cmd.bad_play", word=words[0], plays=_plays())
    play = keys.pop()
    action: dict[str, Any] = {"type": "order", "ability": "card", "play": play}
    i = n
    if play == "pass":
        targets = [t for t in seat.targets("card") if t != seat.number]
        if i >= len(words):
            raise _need("mafia.cmd.need_target", "card",
                        names=seat.names(targets or [s for s in seat.living() if s != seat.number]))
        action["target"] = seat.player(words[i], targets)
        i += 1
    else:
        action["target"] = seat.number
        if i < len(words) and seat.is_me(words[i]):
            i += 1
        if play == "bluff":
            if i >= len(words):
                raise _need("mafia.cmd.need_persona", "card", roles=P.role_list(list(R.PERSONAS)))
            action["persona"], m = parse_role(words, i, kind="persona")
            i += m
    if i < len(words):
        raise CommandError("mafia.cmd.extra", words=" ".join(words[i:]))
    return action


def parse_seats(seat: Seat, key: str, words: list[str]) -> list[int]:
    """Раздача: one to three living players (not oneself), in the order typed."""
    names = [w.strip(",;") for w in words if fold(w) not in CONNECTORS and w.strip(",;")]
    pool = [s for s in seat.living() if s != seat.number]
    if not names:
        raise _need("mafia.cmd.need_seats", key, names=seat.names(pool))
    if len(names) > 3:
        raise _need("mafia.cmd.too_many_seats", key)
    out: list[int] = []
    for word in names:
        found = seat.player(word, pool)
        if found in out:
            raise _need("mafia.cmd.same_seat", key, name=seat.table.seats[found].name)
        out.append(found)
    return out


MAPPING_SEPARATORS = re.compile(r"[=:]")


def parse_mapping(seat: Seat, key: str, words: list[str]) -> list[str]:
    """Ва-банк: a secret role for every seat, the dead included: `ИМЯ=РОЛЬ ...` in any order
    (also `ИМЯ:РОЛЬ`, or `ИМЯ = РОЛЬ`), or just the roles in seat order."""
    everyone = list(range(len(seat.table.seats)))
    roles = seat.rules.roles
    tokens: list[str] = []
    for word in words:
        for n, part in enumerate(MAPPING_SEPARATORS.split(word)):
            if n:
                tokens.append("=")
            part = part.strip(",;")
            if part and fold(part) not in CONNECTORS:
                tokens.append(part)
    if not tokens:
        raise _need("mafia.cmd.need_mapping", key, names=seat.names(everyone))
    mapping: dict[int, str] = {}
    if "=" not in tokens:  # the roles in seat order
        found: list[str] = []
        i = 0
        while i < len(tokens):
            role, n = parse_role(tokens, i, roles)
            found.append(role)
            i += n
        if len(found) != len(everyone):
            raise _need("mafia.cmd.mapping_count", key, n=len(found), players=len(everyone))
        return found
    marks = [i for i, tok in enumerate(tokens) if tok == "="]
    if marks[0] != 1:
        raise _need("mafia.cmd.need_mapping", key, names=seat.names(everyone))
    for k, mark in enumerate(marks):
        stop = marks[k + 1] - 1 if k + 1 < len(marks) else len(tokens)
        player = seat.player(tokens[mark - 1], everyone)
        role_words = tokens[mark + 1:stop]
        if not role_words:
            raise _need("mafia.cmd.need_role", key, roles=P.role_list(list(roles)))
        role, n = parse_role(role_words, 0, roles)
        if n < len(role_words):
            raise CommandError("mafia.cmd.extra", words=" ".join(role_words[n:]))
        if player in mapping:
            raise _need("mafia.cmd.mapping_twice", key, name=seat.table.seats[player].name)
        mapping[player] = role
    missing = [s for s in everyone if s not in mapping]
    if missing:
        raise _need("mafia.cmd.mapping_missing", key, names=seat.names(missing))
    return [mapping[s] for s in everyone]


def parse_listed_public(seat: Seat, key: str, words: list[str]) -> str:
    """Биржа труда: a listed public role no seat holds, named in any language (its key)."""
    taken = {P.public_key_at(seat.view, s) for s in range(len(seat.table.seats))}
    free = [k for k in P.PUBLIC_KEYS if k not in taken]
    names = P.nested_list([P.public_title(k) for k in free]) if free else P.nested("mafia.view.nothing")
    text = " ".join(words).strip().strip("\"«»")
    if not text:
        raise _need("mafia.cmd.need_listed_public", key, names=names)
    found = P.public_key_of(text)
    if found is None:  # a unique start of a listed role's name, in any language
        folded = N.fold_name(text)
        starts = {k for form, k in N.public_forms().items() if form.startswith(folded)}
        found = starts.pop() if len(starts) == 1 else None
    if found is None or found in taken:  # not a listed role, or one in play
        raise CommandError("mafia.cmd.bad_listed_public", word=text, names=names)
    return found


def parse_bloodbath(seat: Seat, key: str, words: list[str]) -> tuple[str, str]:
    """Кровавая баня: a public role (as written at the table; quotes or `|` for several words),
    then a secret role (the last word or two)."""
    publics = [P.public_name(seat.view, s) for s in range(len(seat.table.seats))]
    pool = seat.rules.roles
    roles = P.role_list(list(pool))
    joined = " ".join(words)
    if "|" in joined:
        left, _, right = joined.partition("|")
        role_words = right.split()
        if not left.strip():
            raise _need("mafia.cmd.need_public", key, names=", ".join(n for n in publics if n) or "-")
        if not role_words:
            raise _need("mafia.cmd.need_role", key, roles=roles)
        role, n = parse_role(role_words, 0, pool)
        if n < len(role_words):
            raise CommandError("mafia.cmd.extra", words=" ".join(role_words[n:]))
        return _public_name(left.strip(), publics), role
    if len(words) < 2:
        if not words:
            raise _need("mafia.cmd.need_public", key, names=", ".join(n for n in publics if n) or "-")
        raise _need("mafia.cmd.need_role", key, roles=roles)
    for k in range(min(3, len(words) - 1), 0, -1):
        keys, n = roles_vocab().match(words[-k:], 0, pool)
        if len(keys) == 1 and n == k:
            return _public_name(" ".join(words[:-k]), publics), keys.pop()
    parse_role(words, len(words) - 1, pool)  # says what is wrong with the last word
    raise _need("mafia.cmd.need_role", key, roles=roles)  # pragma: no cover


def _public_name(text: str, publics: list[str]) -> str:
    """A public-role name as written at the table (mafia_seat.match_public: any case, ё = е, a
    unique start), else a listed role named in another language."""
    text = " ".join(text.strip().strip("\"«»").split())
    found, starts = match_public(text, publics)
    if found is not None:
        return publics[found]
    listed = P.public_key_of(text)  # a listed role in another language: its name as written
    same = [n for n in publics if n and listed is not None and P.public_key_of(n) == listed]
    if len(same) == 1 and not starts:
        return same[0]
    raise CommandError("mafia.cmd.no_public", word=text or "-", names=", ".join(n for n in publics if n) or "-")


def parse_bans(key: str, words: list[str], bannable: dict[str, tuple[str, ...]] | None = None
               ) -> tuple[list[list[str]], int]:
    """Запрет: three pairs role:ability (different non-Law roles of the version); the role may
    be left out (each bannable ability names its role)."""
    bannable = bannable or R.BANNABLE
    ban_role = {ability: role for role, keys in bannable.items() for ability in keys}
    tokens: list[str] = []
    for word in words:
        parts = BAN_SEPARATORS.split(word)
        for n, part in enumerate(parts):
            if n:
                tokens.append(":")
            if part:
                tokens.append(part)
    pairs: list[list[str]] = []
    i = 0
    roles = P.role_list(list(bannable))
    while len(pairs) < 3:
        while i < len(tokens) and (tokens[i] == ":" or fold(tokens[i]) in CONNECTORS):
            i += 1
        if i >= len(tokens):
            raise _need("mafia.cmd.need_bans", key, roles=roles)
        role_keys, n = roles_vocab().match(tokens, i, tuple(bannable))
        if len(role_keys) == 1:
            role = next(iter(role_keys))
            j = i + n
            if j < len(tokens) and tokens[j] == ":":
                j += 1
            if j >= len(tokens):
                raise CommandError("mafia.cmd.ban_ability", role=P.role_name(role), word="-",
                                   abilities=P.ability_list(bannable[role]))
            ab_keys, m = abilities_vocab().match(tokens, j, bannable[role])
            if len(ab_keys) == 1:
                pairs.append([role, ab_keys.pop()])
                i = j + m
                continue
            alone, _ = abilities_vocab().match(tokens, i, tuple(ban_role))
            if len(alone) != 1:
                raise CommandError("mafia.cmd.ban_ability", role=P.role_name(role), word=tokens[j],
                                   abilities=P.ability_list(bannable[role]))
        ab_keys, m = abilities_vocab().match(tokens, i, tuple(ban_role))
        if len(ab_keys) != 1:
            raise CommandError("mafia.cmd.bad_ban", word=tokens[i], roles=roles)
        ability = ab_keys.pop()
        pairs.append([ban_role[ability], ability])
        i += m
    seen = [p[0] for p in pairs]
    for role in seen:
        if seen.count(role) > 1:
            raise CommandError("mafia.cmd.ban_same_role", role=P.role_name(role))
    left = [w for w in tokens[i:] if w != ":"]
    if left:
        raise CommandError("mafia.cmd.extra", words=" ".join(left))
    return pairs, len(words)


def parse_vote(seat: Seat, words: list[str]) -> dict[str, Any]:
    words = [w for w in words if fold(w) not in ("за", "против", "against", "for", "проти")] or words
    targets = seat.targets("vote")
    if not words:
        raise _need("mafia.cmd.need_target", "vote", names=seat.names(targets or seat.living()))
    target = seat.player(words[0], targets)
    if len(words) > 1:
        raise CommandError("mafia.cmd.extra", words=" ".join(words[1:]))
    return {"type": "vote", "target": target}


def parse_mail(seat: Seat, text: str) -> dict[str, Any]:
    """`mail NAME|city TEXT`: the text is the player's, kept as typed (cleaned)."""
    text = clean(text).strip()
    first, _, body = text.partition(" ")
    if not first:
        raise CommandError("mafia.cmd.mail_usage", names=seat.names(seat.targets("mail")))
    word = first.rstrip(":,")
    named = any(s.name.casefold() == word.lstrip("@").casefold() for s in seat.table.seats)
    if fold(word) in CITY_WORDS and not named:
        target: Any = "city"
    else:
        target = seat.player(word, seat.targets("mail"))
    body = body.strip()
    if not body:
        raise CommandError("mafia.cmd.need_text")
    return {"type": "mail", "target": target, "text": body}


def parse_cancel(seat: Seat, tokens: list[str]) -> list[dict[str, Any]]:
    orders = list((seat.view.get("orders") or {}).keys())
    if not orders:
        raise CommandError("mafia.cmd.no_orders")
    if not tokens:
        if len(orders) == 1:
            return [{"type": "cancel", "ability": orders[0]}]
        raise CommandError("mafia.cmd.which_cancel",
                           abilities=P.ability_list(P.ordered_abilities(seat.role, orders, seat.version)))
    if fold(tokens[0]) in ALL_WORDS:
        return [{"type": "cancel", "ability": k} for k in P.ordered_abilities(seat.role, orders, seat.version)]
    keys, used = abilities_vocab().match(tokens, 0, orders)
    if len(keys) == 1:
        key = keys.pop()
    else:
        key, used = parse_ability(seat, tokens)
    if used < len(tokens):
        raise CommandError("mafia.cmd.extra", words=" ".join(tokens[used:]))
    return [{"type": "cancel", "ability": key}]
