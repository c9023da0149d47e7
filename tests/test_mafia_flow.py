"""Forum Mafia («Мафия») at real tables over real connections, played to the end.

The humans are driven the way a MUD client script would drive them: GMCP ``Korchma.Game.View``
(their own view: role, orders, who is alive) and ``Korchma.Game.Awaiting`` (the legal list: order
templates with ``"need": [...]``, votes, mail, cancel, ready). In Mafia an order does not end a
wait, ``ready`` does; and the Awaiting is sent again after each order (its legal list changes),
so a script answers each *phase* once: a few orders typed as text from fresh templates, a look at
``заявки``/``orders``, sometimes a ``отмена``/``cancel``, then ``готов``/``ready``. Boris plays
over SSH (no GMCP): a second telnet session of his account reads GMCP for him, he types.

1. A 12-seat game, Анна (telnet, Russian, a custom public role of two words) and Boris (SSH,
   English, the listed public role Brewer/«Пивовар») and ten bots, to the end; a Ukrainian guest
   watches and sees only public news.
2. The observer Master at a Mafia table: the chair, every role and order, the clock; `tell`
   between seated players refused during the game, allowed at a `tell=yes` table.
3. The Mafia's team channel (`свои`/`team`): accepted from a Mafia seat (and heard by a human
   teammate), refused to anyone else; roles are dealt at random, so a few tables are tried.
"""
from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from typing import Any, Callable

from tests.telnet_client import log_in
from tests.wire import FINISHED, company, literal_pieces, open_table, seat_names

END_KEYS = ("mafia.win", "mafia.stalemate")
READY = {"type": "ready"}
FLOOD_KEYS = ["input.flood_warning", "input.flood_muted"]  # typed too fast: the line was dropped
KNOWN_NEEDS = {"role", "persona", "personas", "public", "bans", "text"}
LANGS = ("ru", "en", "uk")

WORDS = {
    "ru": {"night": "ночь", "day": "день", "vote": "голос", "mail": "почта", "cancel": "отмена",
           "ready": "готов", "orders": "заявки", "city": "город", "team": "свои", "say": "сказать",
           "inbox": "почта"},
    "en": {"night": "night", "day": "day", "vote": "vote", "mail": "mail", "cancel": "cancel",
           "ready": "ready", "orders": "orders", "city": "city", "team": "team", "say": "say",
           "inbox": "inbox"},
}
LETTERS = {"ru": ["Я знаю, кто ты.", "Встретимся у мельницы", "Не верь никому"],
           "en": ["I know who you are.", "Meet me at the mill", "Trust nobody"]}
# The reply of `заявки` / `orders`: the list of this phase's orders, then what may be ordered now.
ORDERS_REPLY = {
    "ru": re.compile(r"Ваши заявки: (.*?)\.\s*(?:Сейчас можно|Сейчас вам нечего заявить)", re.S),
    "en": re.compile(r"Your orders: (.*?)\.\s*(?:You may now use|You have nothing to order now)", re.S),
}
WHISPER = {"ru": "Мастер шепчет", "en": "The Master whispers", "uk": "Майстер шепоче"}
LETTER = {"ru": "Анонимное письмо:", "en": "An anonymous letter:"}
ORDER_TAKEN = {"ru": "Заявка принята", "en": "Order taken", "uk": "Заявку прийнято"}
DEATH_LINE = {"ru": "{name} — в Морге", "en": "{name} is in the Morgue"}
SILENCED = {"ru": "Мёртвые молчат", "en": "The dead keep silent"}
SAID = {"ru": "Вы говорите: «", "en": "You say: «"}
# Keys under mafia.cmd.* that are not errors (replies, list items, parts of other messages).
NOT_ERRORS = {"team_say", "team_you", "class_set", "class_other", "class_list", "class_item", "class_own",
              "class_cleared", "class_running", "maybe"}


def flat(text: str) -> str:
    """Text as one line: the server wraps long lines at the reader's width."""
    return re.sub(r"\s+", " ", text)


def cat_text(lang: str, key: str, **params: Any) -> str:
    from world.i18n import strip_marks, t

    return strip_marks(t(lang, key, **params))


def ability_name(lang: str, key: str) -> str:
    return cat_text(lang, f"mafia.ability.{key}")


def role_name(lang: str, key: str) -> str:
    return cat_text(lang, f"mafia.role_name.{key}")


def _templates(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):  # a plural entry
        return [v for k, v in value.items() if k != "count" and isinstance(v, str)]
    return []


_SIGNATURES: list[str] = []


def error_signatures() -> list[str]:
    """Fixed text of the messages that mean "that command was not understood": the Mafia verbs'
    errors (mafia.cmd.*), the engine's rule errors (mafia.error.*), "no such command", "no game
    at your table". A piece that also occurs in some message that is not an error (the win line
    "Игра окончена." is also the error game_over) is left out: it would prove nothing."""
    if _SIGNATURES:
        return _SIGNATURES
    from world.i18n import catalog

    out = set()
    for lang in LANGS:
        cat = catalog(lang)
        error_keys = [k for k in cat if k.startswith("mafia.error.")
                      or (k.startswith("mafia.cmd.") and k.rsplit(".", 1)[-1] not in NOT_ERRORS)]
        error_keys += ["cmd.unknown", "cmd.unknown_suggest", "table.no_game", "table.not_seated",
                       *FLOOD_KEYS]
        others = [re.sub(r"</?[bygrcmd]?>", "", text) for k, v in cat.items() if k not in error_keys
                  for text in _templates(v)]
        for key in error_keys:
            for template in _templates(cat.get(key)):
                pieces = sorted(literal_pieces(template), key=len)
                if pieces and len(pieces[-1]) >= 8 and not any(pieces[-1] in other for other in others):
                    out.add(pieces[-1])
    _SIGNATURES.extend(sorted(out))
    return _SIGNATURES


def find_error(text: str) -> str | None:
    flat_text = flat(text)
    for signature in error_signatures():
        if flat(signature) in flat_text:
            return signature
    return None


def kind_key(action: dict[str, Any]) -> str:
    return action["ability"] if action["type"] == "order" else action["type"]


async def poll(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait until ``predicate()`` holds (checked every few milliseconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"{what}: not seen in {timeout}s")
        await asyncio.sleep(0.02)


class Pacer:
    """A script types no faster than the server's flood control allows ([limits]: 5 commands a
    second, bursts of 10): a token bucket a little slower than the server's."""

    def __init__(self, rate: float = 4.0, burst: float = 6.0) -> None:
        # It starts with one token, not a full burst: the table's setup (class, bots, start)
        # typed just before has spent part of the server's bucket already.
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, 1.0, None

    async def wait(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.stamp = 1.0, loop.time()
        self.tokens -= 1


class Human:
    """A player at a Mafia table: ``typer`` types (telnet or SSH), ``eyes`` reads GMCP (telnet)."""

    def __init__(self, name: str, lang: str, typer: Any, eyes: Any, seed: int) -> None:
        self.name, self.lang, self.typer, self.eyes = name, lang, typer, eyes
        self.words = WORDS[lang]
        self.rng = random.Random(seed)
        self.used: Counter = Counter()  # abilities this player ordered, to vary them
        self.waits = 0
        self.unknown_needs: set[str] = set()  # template arguments this script cannot fill
        self.days = 0
        self.orders = 0
        self.listed = 0
        self.cancels = 0
        self.typed: list[str] = []
        self.allowed_errors: list[tuple[int, int]] = []  # spans of typer text with an allowed error
        self.died_at: int | None = None  # typer text index of the death line
        self.died_event: int | None = None  # GMCP index of the died event
        self.silenced_seen = False
        self.end_of_play: int | None = None  # typer text index where the game's play ended for us
        self.pacer = Pacer()

    # -- what the eyes saw ----------------------------------------------------------------

    @property
    def msgs(self) -> list[tuple[str, Any]]:
        return self.eyes.gmcp_messages

    def latest(self, package: str, before: int | None = None) -> tuple[int | None, Any]:
        msgs = self.msgs
        for i in range((len(msgs) if before is None else before) - 1, -1, -1):
            if msgs[i][0] == package:
                return i, msgs[i][1]
        return None, None

    def view(self) -> dict[str, Any]:
        _, data = self.latest("Korchma.Game.View")
        assert data is not None, f"{self.name}: no Korchma.Game.View yet"
        return data["view"]

    @property
    def seat(self) -> int:
        _, data = self.latest("Korchma.Game.View")
        return data["seat"]

    def window(self) -> str:
        return self.view().get("window") or ""

    def alive(self) -> bool:
        return bool(self.view()["alive"][self.seat])

    def over(self) -> bool:
        return any(name == "Korchma.Game.Event" and data.get("key") in END_KEYS for name, data in self.msgs) \
            or bool(FINISHED.search(self.eyes.text))

    def names(self) -> list[str]:
        """From the latest Korchma.Table that lists the table (one sent after the end may not)."""
        return seat_names(self.msgs, self.latest("Korchma.Game.View")[1]["table"])

    def public_key(self) -> str:
        return self.view()["public_roles"][self.seat].get("key", "other")

    def legal_now(self) -> list[dict[str, Any]]:
        _, awaiting = self.latest("Korchma.Game.Awaiting")
        return awaiting["legal"] if awaiting else []

    # -- typing, with an answer to wait for --------------------------------------------------

    async def command(self, text: str, ack: Callable[[int, int], bool], timeout: float = 20.0) -> bool:
        """Type ``text``; wait for ``ack(gmcp count, text start)`` or an error. An error is allowed
        only when the player died or the phase ended meanwhile (then False); otherwise it fails."""
        await self.pacer.wait()
        start, count, window = len(self.typer.text), len(self.msgs), self.window()
        self.typed.append(text)
        self.typer.send_line(text)
        found: dict[str, Any] = {}

        def answered() -> bool:
            if ack(count, start):
                found["ok"] = True
                return True
            error = find_error(self.typer.text[start:])
            if error:
                found["error"] = error
                return True
            return False

        try:
            await poll(answered, timeout, f"{self.name}: an answer to {text!r}")
        except AssertionError:
            raise AssertionError(f"{self.name}: no answer to {text!r}; since:\n{self.typer.text[start:][-2500:]}") \
                from None
        if found.get("ok"):
            return True
        if self.over() or not self.alive() or self.window() != window:
            self.allowed_errors.append((start, len(self.typer.text)))
            return False
        raise AssertionError(f"{self.name}: {text!r} was not understood ({found['error']!r}):\n"
                             f"{self.typer.text[start:][-2500:]}")

    def event_ack(self, key: str, ability: str) -> Callable[[int, int], bool]:
        """The whisper ``key`` for this seat and ability, then a fresh Awaiting after it."""
        def ack(count: int, _start: int) -> bool:
            msgs = self.msgs
            for i in range(count, len(msgs)):
                name, data = msgs[i]
                if name == "Korchma.Game.Event" and data["key"] == key and data["params"].get("seat") == self.seat \
                        and data["params"].get("ability") == ability:
                    return any(m[0] == "Korchma.Game.Awaiting" for m in msgs[i + 1:])
            return False
        return ack

    def ready_ack(self, window: str) -> Callable[[int, int], bool]:
        """Not awaited any more in this window (or a new window, or the end)."""
        def ack(count: int, _start: int) -> bool:
            msgs = self.msgs
            for i in range(count, len(msgs)):
                name, data = msgs[i]
                if name != "Korchma.Game.Awaiting":
                    continue
                if READY not in data["legal"]:
                    return True
                _, view = self.latest("Korchma.Game.View", before=i)
                if view["view"]["window"] != window:
                    return True
            return self.over()
        return ack

    def text_ack(self, pattern: re.Pattern) -> Callable[[int, int], bool]:
        return lambda _count, start: bool(pattern.search(self.typer.text[start:]))

    # -- playing ---------------------------------------------------------------------------

    async def play(self, until: float) -> None:
        """Answer every phase that awaits this seat until the game ends (or the seat dies)."""
        loop = asyncio.get_running_loop()
        handled: set[str] = set()
        while not self.over():
            assert loop.time() < until, f"{self.name}: the game did not end in time"
            if self.latest("Korchma.Game.View")[1] is not None and not self.alive():
                await self.after_death()
                break
            index, awaiting = self.latest("Korchma.Game.Awaiting")
            if awaiting is None or READY not in awaiting["legal"]:
                await self.next_change()
                continue
            _, view = self.latest("Korchma.Game.View", before=index)
            window = view["view"]["window"]
            assert window not in handled, f"{self.name}: awaited again in {window} after saying ready"
            handled.add(window)
            await self.take_turn(window)
        await poll(self.over, max(1.0, until - loop.time()), f"{self.name}: the end of the game")
        self.end_of_play = len(self.typer.text)

    async def next_change(self) -> None:
        count = len(self.msgs)
        try:
            await poll(lambda: len(self.msgs) > count or self.over(), 2.0, "a change")
        except AssertionError:
            pass

    def choose(self, options: list[dict[str, Any]], day: bool, first: bool) -> dict[str, Any]:
        rng = self.rng
        votes = [a for a in options if a["type"] == "vote"]
        if day and first and votes:
            others = [a for a in votes if a["target"] != self.seat]
            return rng.choice(others if others and rng.random() < 0.9 else votes)
        by_key: dict[str, list[dict[str, Any]]] = {}
        for action in options:
            by_key.setdefault(kind_key(action), []).append(action)
        keys = list(by_key)
        if len(keys) > 1 and "mail" in keys and rng.random() < 0.7:
            keys.remove("mail")  # letters are few (2 or 3 a game): not every night
        least = min(self.used[k] for k in keys)
        key = rng.choice([k for k in keys if self.used[k] == least])
        return rng.choice(by_key[key])

    def fill(self, action: dict[str, Any]) -> dict[str, Any]:
        """A template with its arguments filled from the seat's own view."""
        from games.mafia import roles as R

        rng = self.rng
        out = {k: v for k, v in action.items() if k not in ("need", "among")}
        among = action.get("among")  # the seats a public name may pick (their protections)
        view = self.view()
        for need in action.get("need", ()):
            if need == "role":
                out["role"] = rng.choice(R.NON_LAW if action.get("ability") == "jury" else R.ROLE_ORDER)
            elif need == "persona":
                out["persona"] = rng.choice(R.PERSONAS)
            elif need == "personas":
                out["personas"] = rng.sample(list(R.PERSONAS), 2)
            elif need == "public":
                living = [p["name"] for s, p in enumerate(view["public_roles"])
                          if view["alive"][s] and (among is None or s in among)]
                out["public"] = rng.choice(living)
            elif need == "bans":
                out["bans"] = [[role, rng.choice(R.BANNABLE[role])] for role in rng.sample(list(R.BANNABLE), 3)]
            elif need == "text":
                out["text"] = rng.choice(LETTERS[self.lang])
            else:
                raise AssertionError(f"unknown argument {need!r} in {action}")
        return out

    def text_for(self, action: dict[str, Any], day: bool) -> str:
        """What the player types for a filled template, in their language."""
        from world.presenters import mafia as P

        lang, words, names = self.lang, self.words, self.names()
        kind = action["type"]
        if kind == "vote":
            return f"{words['vote']} {names[action['target']]}"
        if kind == "mail":
            target = words["city"] if action["target"] == "city" else names[action["target"]]
            return f"{words['mail']} {target} {action['text']}"
        key = action["ability"]
        out = [words["day" if day else "night"], ability_name(lang, key)]
        spec = P.spec(self.view()["role"], key, self.public_key())
        if "target" in action and spec is not None and spec.target != "self":
            out.append(names[action["target"]])
        if "public" in action:
            out.append(f'"{action["public"]}" {role_name(lang, action["role"])}')
        elif "role" in action:
            out.append(role_name(lang, action["role"]))
        if "persona" in action:
            out.append(role_name(lang, action["persona"]))
        if "personas" in action:
            out.extend(role_name(lang, p) for p in action["personas"])
        if "bans" in action:
            out.extend(f"{role_name(lang, r)}:{ability_name(lang, a)}" for r, a in action["bans"])
        return " ".join(out)

    def group_of(self, key: str) -> str:
        from world.presenters import mafia as P

        spec = P.spec(self.view()["role"], key, self.public_key())
        return getattr(spec, "group", "") or ""

    async def take_turn(self, window: str) -> None:
        """One phase: 1-2 orders from fresh legal templates (by day a vote first), the order list,
        sometimes a cancel, then ready."""
        self.waits += 1
        rng, words = self.rng, self.words
        day = window.startswith("day")
        self.days += day
        given: list[str] = []
        for action in self.legal_now():
            self.unknown_needs.update(set(action.get("need", ())) - KNOWN_NEEDS)
        for n in range(1 if rng.random() < 0.4 else 2):
            options = [a for a in self.legal_now() if a["type"] in ("order", "vote", "mail")
                       and kind_key(a) not in given and set(a.get("need", ())) <= KNOWN_NEEDS]
            if not options:
                break
            action = self.fill(self.choose(options, day, first=not n))
            key = kind_key(action)
            if not await self.command(self.text_for(action, day), self.event_ack("mafia.ordered", key)):
                return
            group = self.group_of(key)
            if group:  # one weapon of the Арсенал a night: the new one replaces the old
                given = [k for k in given if self.group_of(k) != group]
            given.append(key)
            self.used[key] += 1
            self.orders += 1
        kept = [k for k in given if k != "double_life"]  # "any time": done at once, not kept
        if kept:
            start = len(self.typer.text)
            if not await self.command(words["orders"], self.text_ack(ORDERS_REPLY[self.lang])):
                return
            listed = flat(ORDERS_REPLY[self.lang].search(self.typer.text[start:]).group(1))
            for key in kept:
                assert ability_name(self.lang, key) in listed, (self.name, key, listed)
            self.listed += 1
            if rng.random() < 0.35:
                victim = rng.choice(kept)
                if not await self.command(f"{words['cancel']} {ability_name(self.lang, victim)}",
                                          self.event_ack("mafia.cancelled", victim)):
                    return
                self.cancels += 1
        await self.command(words["ready"], self.ready_ack(window))

    async def after_death(self) -> None:
        """Dead: note where the death line is, and try to speak at the table (refused while the
        game runs)."""
        death = re.compile(r"\s+".join(map(re.escape, DEATH_LINE[self.lang].format(name=self.name).split())))
        await poll(lambda: bool(death.search(self.typer.text)), 10, f"{self.name}: the death line")
        self.died_at = death.search(self.typer.text).start()
        for i, (name, data) in enumerate(self.msgs):
            if name == "Korchma.Game.Event" and data["key"] == "mafia.died" and data["params"].get("seat") == self.seat:
                self.died_event = i
                break
        assert self.died_event is not None, f"{self.name}: no mafia.died event for the seat"
        if self.over():
            return
        start = len(self.typer.text)
        self.typer.send_line(f"{self.words['say']} {'я ещё здесь' if self.lang == 'ru' else 'I am still here'}")
        await poll(lambda: SILENCED[self.lang] in self.typer.text[start:] or SAID[self.lang] in self.typer.text[start:],
                   10, f"{self.name}: an answer to say")
        tail = self.typer.text[start:]
        if SILENCED[self.lang] in tail:
            self.silenced_seen = True
        else:  # spoken: only because the game had ended before the line reached the server
            assert self.over(), f"{self.name}: a dead player spoke at a running table:\n{tail}"


def assert_understood(human: Human) -> None:
    """No error message anywhere in what the player saw, outside the allowed spans."""
    text = human.typer.text
    for signature in error_signatures():
        wrapped = re.compile(r"\s+".join(map(re.escape, signature.split())))  # lines wrap at the width
        for m in wrapped.finditer(text):
            assert any(a <= m.start() <= b for a, b in human.allowed_errors), \
                f"{human.name}: not understood ({signature!r}):\n{text[max(0, m.start() - 1500):m.end() + 200]}"


def check_role_whisper(human: Human, text: str, lang: str) -> None:
    """The role whisper in the player's language: role, faction, every ability of the role with
    its description, the common abilities, the starting personas with counts."""
    from games.mafia import roles as R

    view = human.view()
    role = view["role"]
    start = {"ru": "Мастер шепчет: ваша тайная роль — ", "en": "The Master whispers: your secret role is "}[lang]
    text = flat(text)
    at = text.find(start + role_name(lang, role))
    assert at >= 0, f"{human.name}: no role whisper for {role}:\n{text[:3000]}"
    whisper = text[at:at + 4000]
    faction = cat_text(lang, f"mafia.faction.{view['faction']}")
    assert f"({faction})" in whisper[:200], whisper[:200]
    header = {"ru": "Способности роли:", "en": "Your role's abilities:"}[lang]
    common = {"ru": "Есть у всех:", "en": "Everyone has:"}[lang]
    assert header in whisper and common in whisper, whisper
    abilities = whisper[whisper.index(header):whisper.index(common)]
    for key in R.ROLE_ABILITIES[role]:
        assert f"• {ability_name(lang, key)}" in abilities, (key, abilities)
        assert flat(cat_text(lang, f"mafia.desc.{key}"))[:20] in abilities, (key, abilities)
    personas = {"ru": "Ваши стартовые Личины: ", "en": "Your starting personas: "}[lang]
    assert personas in whisper
    listed = whisper[whisper.index(personas):]
    for persona, count in view["personas_start"].items():
        assert f"{role_name(lang, persona)}({count})" in listed, (persona, listed[:300])


# -- 1. twelve seats, two humans, ten bots -------------------------------------------------------------

async def test_twelve_seats_humans_and_bots_to_the_end(server):
    """Анна (telnet, Russian, «Старый продавец») and Boris (SSH, English, the listed «Brewer») with
    ten bots, 10-minute phases that end as soon as everyone is ready; every wait answered with orders typed
    from the legal templates; to the end. A Ukrainian guest watches."""
    loop = asyncio.get_running_loop()
    anna, boris, boris_eyes, guest = await company(server)
    # Two personal tells each before the game: the long game's news must not push them out of
    # the inbox (issue 17), and `inbox` lists them before the tables' news.
    for target, client, teller in (("Анна", anna, boris), ("Boris", boris, anna)):
        for text in ("перше", "друге"):
            teller.send_line(f"tell {target} {text} для {target}")
            await client.expect(f"{text} для {target}")

    number = await open_table(anna, "открыть мафия night=10m day=10m seats=12")
    anna.send_line("класс Старый продавец")
    await anna.expect("Ваша явная роль: «Старый продавец».")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    boris.send_line("class Brewer")  # a listed public role («Пивовар»), named in English
    await boris.expect(re.compile(r"Your public role: «(Brewer|Пивовар)»\."))
    await anna.expect("Boris выбирает явную роль «Пивовар».")
    anna.send_line("боты 10")
    await anna.expect("За стол садятся 10 ботов")
    anna.send_line("класс")
    await anna.expect(re.compile(rf"Явные роли за столом {number}:\s+Анна — «Старый\s+продавец»,\s+Boris —\s+«Пивовар»,"
                                 r"\s+Бот-Афанасий —\s+своё\s+имя"))
    guest.send_line(f"watch {number}")
    await guest.expect(f"{number}")
    started = loop.time()
    anna.send_line("начать")
    await anna.expect("Начинается «Мафия»", timeout=15)
    await boris.expect("Mafia begins", timeout=15)
    await guest.expect("Починається «Мафія»", timeout=15)
    await anna.expect(re.compile(r"Наступает ночь 1\.\s+На заявки —\s+10\s+минут"), timeout=15)
    await boris.expect(re.compile(r"Night 1 begins\.\s+Orders:\s+10\s+minutes"), timeout=15)

    players = [Human("Анна", "ru", anna, anna, 11), Human("Boris", "en", boris, boris_eyes, 12)]
    for p in players:
        await poll(lambda p=p: p.latest("Korchma.Game.View")[1] is not None, 15, f"{p.name}: the first view")
    assert players[0].view()["public_roles"][players[0].seat]["name"] == "Старый продавец"
    assert players[1].view()["public_roles"][players[1].seat]["key"] == "brewer"
    until = loop.time() + 120
    await asyncio.gather(*(p.play(until) for p in players))
    await anna.expect(FINISHED, timeout=20)
    await boris.expect(FINISHED, timeout=20)
    await guest.expect(FINISHED, timeout=20)
    elapsed = loop.time() - started
    assert elapsed < 110, f"the game took {elapsed:.0f}s"
    ends = [data["key"] for name, data in players[0].msgs if name == "Korchma.Game.Event" and data["key"] in END_KEYS]
    assert len(ends) == 1, ends

    # Every wait of a living seat was answered with orders typed from the templates.
    for p in players:
        assert p.waits > 0 and p.orders > 0, (p.name, p.waits, p.orders)
        assert not p.unknown_needs, (p.name, p.unknown_needs)  # the contract's arguments only
        assert_understood(p)
    assert sum(p.listed for p in players) > 0
    assert len({k for p in players for k in p.used}) >= 2, [p.used for p in players]
    for p in players:
        if p.days:
            assert p.used["vote"] > 0, (p.name, p.used)

    # The role whisper, in each one's own language.
    check_role_whisper(players[0], anna.text, "ru")
    check_role_whisper(players[1], boris_eyes.text, "en")
    check_role_whisper(players[1], boris.text, "en")
    whisper = flat(boris_eyes.text)[flat(boris_eyes.text).find("The Master whispers: your secret role"):]
    assert "«Brewer»" in whisper[:3000] and ability_name("en", "beer") in whisper[:3000], whisper[:3000]

    # The dead get nothing private after their death line, and may not speak at the table.
    for p in players:
        if p.died_at is None:
            continue
        end = p.end_of_play or len(p.typer.text)
        after = p.typer.text[p.died_at:end]
        for private in (WHISPER[p.lang], ORDER_TAKEN[p.lang], LETTER[p.lang]):
            assert private not in after, (p.name, private, after[-3000:])
        for name, data in p.msgs[p.died_event:]:
            assert not (name == "Korchma.Game.Event" and data["whisper"]), (p.name, data)
        if p is players[1]:
            tail = boris_eyes.text[boris_eyes.text.find("Boris is in the Morgue"):]
            assert WHISPER["en"] not in tail and ORDER_TAKEN["en"] not in tail
    for p in players:
        if p.died_at is not None and not p.silenced_seen:
            assert p.over()  # the game ended with that death: nothing to refuse

    # The inbox keeps the news for rereading (`почта стол N` at a Mafia table is the inbox): the
    # newest page ends with the result, after the news of the last phase.
    item = r"\[\d\d\.\d\d \d\d:\d\d UTC\]\s+(?:новое\s+|new\s+)?"
    for client, header, news, result in (
            (anna, rf"Стол {number}, новости для вас \(\d+ сообщени", r"(Вечер\. Итоги дня|Утро\. Итоги ночи) \d+:",
             r"(Игра окончена\.|Пат:)"),
            (boris, rf"Table {number}, news for you \(\d+ messages?", r"(Evening|Morning)\. What (Day|Night) \d+ brought:",
             r"(The game is over\.|Stalemate:)")):
        client.send_line(f"почта стол {number}" if client is anna else f"inbox table {number}")
        await client.expect(re.compile(header))
        since = client.mark
        await client.expect(re.compile(item + result), timeout=10)
        assert re.search(item + news, flat(client.text[since:client.mark])), client.text[since:client.mark]
    # After the whole game (far more news than the old inbox's 20 items), the tells are all there,
    # listed first, newest first, and the game's news is one line of its own folder.
    for client, lang, target in ((anna, "ru", "Анна"), (boris, "en", "Boris")):
        client.send_line("почта" if client is anna else "inbox")
        await client.expect(cat_text(lang, "inbox.tells_header", n=2, unread=0))
        since = client.mark
        await client.expect(cat_text(lang, "inbox.news_header"))
        tells = client.text[since:client.mark]
        assert 0 <= tells.find(f"друге для {target}") < tells.find(f"перше для {target}"), tells
        line = cat_text(lang, "inbox.folder_read", number=number, game=cat_text(lang, "game.mafia"), n=997).strip()
        count_at, comma = line.index(" 997 ") + 1, line.index(",")  # «997 сообщений»: any count, its own plural
        await client.expect(re.compile(re.escape(line[:count_at]) + r"\d+ [^,]+" + re.escape(line[comma:])))

    # The guest heard the news in Ukrainian and nothing private: no whisper, no secret role.
    g = guest.text
    assert re.search(r"(Ранок|Вечір)\. Підсумки (ночі|дня) \d+:", g)
    assert "шепоче" not in g and "шепчет" not in g and "whispers" not in g and "Заявку прийнято" not in g
    end = g.find("Гру закінчено.") if "Гру закінчено." in g else g.find("Пат:")
    assert end > 0
    from games.mafia import roles as R
    for role in R.ROLE_ORDER:
        word = role_name("uk", role)
        assert not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", g[:end]), (word, g[:end][-3000:])
    for name, data in guest.gmcp_messages:
        if name == "Korchma.Game.Event":
            assert not data["whisper"], data
        if name == "Korchma.Game.View":
            assert data["seat"] is None
            assert not {"role", "roles", "orders", "team", "knowledge", "personas"} & set(data["view"]), data["view"]
    for client in (anna, boris_eyes, guest):
        await client.close()
    await boris.close()


# -- 2. the observer Master ----------------------------------------------------------------------------

def _deadline_left(human: Human) -> float | None:
    """Seconds left on the clock of the player's current wait (GMCP Awaiting ``deadline``)."""
    from datetime import datetime, timezone

    _, awaiting = human.latest("Korchma.Game.Awaiting")
    if awaiting is None or awaiting["deadline"] is None:
        return None
    return (datetime.fromisoformat(awaiting["deadline"]) - datetime.now(timezone.utc)).total_seconds()


async def order_something(human: Human, day: bool = False) -> str:
    """Type one order from the legal templates (not a letter); the ability it used."""
    options = [a for a in human.legal_now() if a["type"] in ("order", "vote")
               and set(a.get("need", ())) <= KNOWN_NEEDS and a.get("ability") != "double_life"]
    assert options, human.legal_now()
    action = human.fill(human.choose(options, day, first=True))
    key = kind_key(action)
    assert await human.command(human.text_for(action, day), human.event_ack("mafia.ordered", key))
    return key


async def test_observer_master_sees_everything_and_holds_the_clock(server):
    """`open mafia master=Вика`: Вика takes the chair, hears every role whisper and every order
    (marked for whom), sees every secret role in `look`; pauses, extends and resumes the clock.
    Seated players may not `tell` each other during the game; at a `tell=yes` table they may."""
    anna = await log_in(server.telnet_port, "Анна", gmcp=True)
    boris = await log_in(server.telnet_port, "Boris", gmcp=True)
    boris.send_line("lang en")
    await boris.expect("Language: English")
    number = await open_table(anna, "открыть мафия night=10m day=10m master=Вика")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("боты 3")
    await anna.expect("За стол садятся 3 бота")
    vika = await log_in(server.telnet_port, "Вика", gmcp=True)
    boris.send_line(f"master {number}")  # a seated player may not be the Master
    await boris.expect(re.compile(r"You play at this table|The Master of table \d+ is an admin"))
    vika.send_line(f"мастер {number}")
    await vika.expect(f"Вы — Мастер стола {number}")
    await anna.expect("Вика садится в кресло Мастера")
    anna.send_line("начать")
    await anna.expect("Начинается «Мафия»", timeout=15)
    names = ["Анна", "Boris", "Бот-Афанасий", "Бот-Глафира", "Бот-Евсей"]

    # Every role whisper reaches the Master, marked with whom it was for.
    def whispers_heard() -> bool:
        text = flat(vika.text)
        return all(f"[Мастеру; для: {n}] Мастер шепчет: ваша тайная роль — " in text for n in names)
    await poll(whispers_heard, 15, "the role whispers at the Master's")
    humans = [Human("Анна", "ru", anna, anna, 21), Human("Boris", "en", boris, boris, 22)]
    for h in humans:
        await poll(lambda h=h: h.latest("Korchma.Game.Awaiting")[1] is not None
                   and READY in h.latest("Korchma.Game.Awaiting")[1]["legal"], 15, f"{h.name}: the first wait")
    own = humans[0].view()  # Anna's own view: her role only
    assert {"role", "orders"} <= set(own) and "roles" not in own
    views = [d for n, d in vika.gmcp_messages if n == "Korchma.Game.View"]
    assert views and views[-1]["seat"] == "master"
    roles = views[-1]["view"]["roles"]
    assert roles[0] == humans[0].view()["role"] and roles[1] == humans[1].view()["role"]

    # Orders of the humans (and of the bots) reach the Master as they are given.
    anna_key = await order_something(humans[0])
    boris_key = await order_something(humans[1])
    await poll(lambda: f"[Мастер] Анна: {ability_name('ru', anna_key)}" in flat(vika.text)
               and f"[Мастер] Boris: {ability_name('ru', boris_key)}" in flat(vika.text), 10, "the order log")
    await poll(lambda: "[Мастеру; для: Анна] Заявка принята: " in flat(vika.text), 10, "the order whisper")
    await poll(lambda: "[Мастер] Бот-" in flat(vika.text), 15, "a bot's order at the Master's")
    assert "[Мастер]" not in anna.text and "[to the Master" not in boris.text

    # `look`: every seat's secret role and this phase's orders (no HP).
    vika.send_line("смотреть")
    await vika.expect("Для Мастера (тайные роли, заявки этой фазы):")
    await vika.settle(0.3)
    seen = flat(vika.text_since_mark())
    for n, role in zip(names, roles):
        assert f"{n}: {role_name('ru', role)}" in seen, (n, role, seen)
    assert ability_name("ru", anna_key) in seen

    # The clock: pause (the wait loses its deadline, orders still go), extend, resume.
    left = _deadline_left(humans[0])
    assert left is not None and 500 < left <= 600, left
    vika.send_line("мастер пауза")
    await anna.expect(f"Мастер остановил часы за столом {number}")
    await boris.expect(f"The Master has stopped the clock at table {number}")
    await poll(lambda: _deadline_left(humans[0]) is None, 10, "the stopped clock in Anna's Awaiting")
    vika.send_line("мастер пауза")
    await vika.expect("Часы уже стоят")
    await order_something(humans[0])  # orders are still taken while the clock stands
    vika.send_line("мастер продлить 30м")
    await anna.expect(re.compile(rf"Мастер продлил фазу за столом {number} на 30 минут:\s+осталось\s+\d+\s+минут"))
    await boris.expect(re.compile(rf"The Master extended the phase at table {number} by 30 minutes"))
    assert _deadline_left(humans[0]) is None
    vika.send_line("мастер продолжить")
    await anna.expect(re.compile(rf"Часы за столом {number} снова идут:\s+до конца фазы\s+\d+\s+минут"))
    await boris.expect(f"The clock at table {number} runs again")
    await poll(lambda: (_deadline_left(humans[0]) or 0) > 2000, 10, "the extended clock in Anna's Awaiting")
    assert _deadline_left(humans[0]) <= 2400
    vika.send_line("мастер продолжить")
    await vika.expect("Часы и так идут")
    assert humans[0].window() == "night-1"  # the phase is still on: Anna has not said ready
    # The Master does not play: the game's verbs are not hers (and she is told whose they are).
    vika.send_line("готов")
    await vika.expect("«готов» — ход игрока: его набирают те, кто сидит за столом и играет.")

    # No private talk between seated players while the game runs (Почта is the rules' channel).
    anna.send_line("шепнуть Boris встретимся у мельницы")
    await anna.expect("Игроки за этим столом не могут говорить наедине, пока идёт игра")
    boris.send_line("tell Анна meet me at the mill")
    await boris.expect("Players at this table cannot talk privately while the game runs")
    await anna.settle(0.3)
    assert "мельниц" not in boris.text and "meet me at the mill" not in anna.text
    assert_understood(humans[0])
    assert_understood(humans[1])

    # A table opened with tell=yes: seated players may whisper to each other.
    grisha = await log_in(server.telnet_port, "Гриша", gmcp=True)
    dunya = await log_in(server.telnet_port, "Дуня", gmcp=True)
    other = await open_table(grisha, "открыть мафия tell=yes night=10m day=10m")
    dunya.send_line(f"сесть {other}")
    await dunya.expect(f"Вы садитесь за стол {other}")
    grisha.send_line("боты 3")
    await grisha.expect("За стол садятся 3 бота")
    grisha.send_line("начать")
    await grisha.expect("Начинается «Мафия»", timeout=15)
    grisha.send_line("шепнуть Дуня встретимся у мельницы")
    await grisha.expect("Вы шепчете Дуне: «встретимся у мельницы»")
    await dunya.expect("Гриша шепчет вам: «встретимся у мельницы»")
    for client in (anna, boris, vika, grisha, dunya):
        await client.close()


# -- 3. the Mafia's own channel ------------------------------------------------------------------------

TEAM_PAIRS = [("Зоя", "Yakov"), ("Лука", "Maya"), ("Нестор", "Olga"), ("Павел", "Rita"), ("Савва", "Tina"),
              ("Фома", "Uma"), ("Хельга", "Vera"), ("Эмма", "Wanda")]


async def test_team_channel_is_the_mafias_own(server):
    """Roles are dealt at random: at each table (two humans, six bots, 8 seats: 3 of them Mafia)
    each human learns from their own view whether they are Mafia. A Mafia member's `свои`/`team`
    is accepted and heard by a human teammate only; anyone else's is refused. Tables are tried
    until both answers were seen (or the pairs run out)."""
    branches: Counter = Counter()
    for n, (ru_name, en_name) in enumerate(TEAM_PAIRS):
        first = await log_in(server.telnet_port, ru_name, gmcp=True)
        second = await log_in(server.telnet_port, en_name, gmcp=True)
        second.send_line("lang en")
        await second.expect("Language: English")
        number = await open_table(first, "открыть мафия seats=8 night=10m day=10m")
        second.send_line(f"join {number}")
        await second.expect("You sit down")
        first.send_line("боты 6")
        await first.expect("За стол садятся 6 ботов")
        first.send_line("начать")
        await first.expect("Начинается «Мафия»", timeout=15)
        humans = [Human(ru_name, "ru", first, first, 30 + n), Human(en_name, "en", second, second, 40 + n)]
        for h in humans:
            await poll(lambda h=h: h.latest("Korchma.Game.View")[1] is not None, 15, f"{h.name}: the view")
        mafia = {h.name: "team" in h.view() for h in humans}
        for h in humans:
            assert (h.view()["faction"] == "mafia") == mafia[h.name], h.view()
        for h, other in ((humans[0], humans[1]), (humans[1], humans[0])):
            words = h.words
            other_start, start = len(other.typer.text), len(h.typer.text)
            text = f"привет от {h.name}" if h.lang == "ru" else f"hello from {h.name}"
            h.typer.send_line(f"{words['team']} {text}")
            if mafia[h.name]:
                branches["mafia"] += 1
                teammates = [m["seat"] for m in h.view()["team"] if m["seat"] != h.seat]
                assert other.seat in teammates or not mafia[other.name]
                whisper = {"ru": "Мастер шепчет: Мафия открывает глаза. Свои:",
                           "en": "The Master whispers: the Mafia opens its eyes. Your team:"}[h.lang]
                assert whisper in flat(h.typer.text)
                await h.typer.expect({"ru": f"[свои] вы: {text}", "en": f"[team] you: {text}"}[h.lang])
                if mafia[other.name]:  # a human teammate hears it
                    await other.typer.expect(re.compile(rf"\[(свои|team)\] {h.name}: {text}"))
                    branches["heard"] += 1
            else:
                branches["not mafia"] += 1
                await h.typer.expect({"ru": "Канал «свои» — только для Мафии",
                                      "en": "The team channel is for the Mafia only"}[h.lang])
                assert "Мафия открывает глаза" not in h.typer.text and "opens its eyes" not in h.typer.text
                h.allowed_errors.append((start, len(h.typer.text)))  # the refusal we asked for
            await other.typer.settle(0.3)
            if not (mafia[h.name] and mafia[other.name]):
                assert text not in other.typer.text[other_start:], other.typer.text[other_start:]
        for h in humans:
            assert_understood(h)
            await h.typer.close()
        if branches["mafia"] and branches["not mafia"]:
            break
    assert branches["mafia"] + branches["not mafia"] >= 2, branches
