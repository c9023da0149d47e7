"""Coup («Переворот») at a real table, over telnet and SSH, in Russian, English and Ukrainian.

The humans here are driven the way a MUD client script would drive them: read GMCP
``Korchma.Game.Awaiting`` (the exact legal actions), pick one, and type the matching text command
in the player's language (direct verbs, ``claim ROLE``, role names in any language and by prefix,
players by a unique start of their name). So a whole game played to the end also shows that every
legal action has a verb. The SSH player has no GMCP: a second telnet session of the same account
(all sessions of an account see the same stream) reads it for them, and the SSH side types.

Offline tests at the top check the pieces without a server: role words, the verbs against every
legal action of many random positions, and nested messages that render in the reader's language
and survive a trip through JSON (the inbox).
"""
from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from tests import wire
from tests.offline import OfflineTable
from tests.telnet_client import log_in
from tests.wire import (FINISHED, WirePlayer, accusative, company, error_signatures, open_table,
                       sit_down_and_start, unique_prefix)

LANGS = ("en", "ru", "uk")

# Words a player may type for each role, per language: full names, other editions, other cases,
# and unique prefixes.
ROLE_WORDS = {
    "en": {"duke": ["duke", "Duke", "du"], "assassin": ["assassin", "ASSASSIN", "ass"],
           "captain": ["captain", "cap"], "ambassador": ["ambassador", "amb", "advisor"],
           "inquisitor": ["inquisitor", "inq", "investigator"], "contessa": ["contessa", "con", "countess"]},
    "ru": {"duke": ["губернатор", "Губернатора", "губ", "герцог"], "assassin": ["убийца", "убийцу", "убий"],
           "captain": ["полицейский", "полиц", "капитан"], "ambassador": ["советник", "совет", "посол"],
           "inquisitor": ["следователь", "след", "инквизитор"], "contessa": ["княжна", "княж", "Княжну"]},
    "uk": {"duke": ["герцогиня", "герц", "Герцогиню"], "assassin": ["вбивця", "вбив"],
           "captain": ["капітан", "капіт"], "ambassador": ["посол", "посла"],
           "inquisitor": ["інквізитор", "інкв"], "contessa": ["графиня", "граф", "graf"]},
}

VERBS = {
    "en": {"income": ["income"], "foreign_aid": ["foreign", "aid"], "coup": ["coup"], "tax": ["tax"],
           "assassinate": ["assassinate", "kill"], "steal": ["steal"], "exchange": ["exchange"],
           "examine": ["examine"], "claim": ["claim"], "challenge": ["challenge", "doubt"],
           "allow": ["allow", "pass"], "block": ["block"], "prove": ["prove", "show"],
           "concede": ["concede"], "lose": ["lose"], "keep": ["keep"], "show": ["show"],
           "examine_return": ["return"], "examine_swap": ["swap"], "draft": ["draft"]},
    "ru": {"income": ["доход"], "foreign_aid": ["иностранная", "подмога"], "coup": ["переворот"],
           "tax": ["налог"], "assassinate": ["убить"], "steal": ["украсть"], "exchange": ["обмен"],
           "examine": ["допрос"], "claim": ["заявить"], "challenge": ["вызов", "сомневаюсь"],
           "allow": ["пропустить", "пас"], "block": ["блок"], "prove": ["доказать", "показать"],
           "concede": ["сдаться"], "lose": ["сбросить"], "keep": ["оставить"], "show": ["показать"],
           "examine_return": ["вернуть"], "examine_swap": ["заменить"], "draft": ["выбрать"]},
    "uk": {"income": ["дохід"], "foreign_aid": ["іноземна"], "coup": ["переворот"], "tax": ["податок"],
           "assassinate": ["вбити"], "steal": ["вкрасти"], "exchange": ["обмін"], "examine": ["допит"],
           "claim": ["заявити"], "challenge": ["виклик"], "allow": ["пропустити"], "block": ["блокувати"],
           "prove": ["довести"], "concede": ["здатися"], "lose": ["скинути"], "keep": ["залишити"],
           "show": ["показати"], "examine_return": ["повернути"], "examine_swap": ["замінити"],
           "draft": ["вибрати"]},
}
# How an English keyboard spells the Russian names of test_every_legal_action_has_a_verb.
LATIN = {"Анна": "Anna", "Бот-Афанасий": "Afanasy", "Бот-Глафира": "glaf", "Гость": "Gost",
         "Дуня": "Dunya", "Борислав": "borislav", "Ева": "Eva"}
TARGET_WORDS = {
    "ru": {"coup": ["против"], "assassinate": ["игрока"], "steal": ["у", "у игрока"], "examine": ["игрока"]},
    "en": {"coup": ["against", "on"], "assassinate": ["player"], "steal": ["from"], "examine": ["player"]},
    "uk": {"coup": ["проти"], "assassinate": ["гравця"], "steal": ["у", "в"], "examine": ["гравця"]},
}
CLAIM_OF = {"tax": "duke", "assassinate": "assassin", "steal": "captain", "examine": "inquisitor"}


def command_for(action: dict[str, Any], lang: str, names: list[str], legal: list[dict[str, Any]],
                fifth: str, rng: random.Random) -> str:
    """The text a player types for ``action``, varied: verbs and claims, names and prefixes."""
    kind = action["type"]
    words = VERBS[lang]

    def verb(key: str) -> str:
        return rng.choice(words[key])

    def role(key: str) -> str:
        return rng.choice(ROLE_WORDS[lang][key])

    def who(seat: int) -> str:
        name = names[seat]
        forms = [name, unique_prefix(name, names), name.lower()]
        if lang != "en" and re.search("[а-яё]$", name):
            forms.append(accusative(name))  # «убить Анну», «украсть у Бот-Глафиру»
        if name.startswith("Бот-"):
            forms.append(name[4:8].lower())  # «афан» for Бот-Афанасий
        if lang == "en" and name in LATIN:
            forms.append(LATIN[name])  # an English keyboard: Afanasy for Бот-Афанасий
        word = rng.choice(forms)
        if rng.random() < 0.3:  # a little word before the name
            word = f"{rng.choice(TARGET_WORDS[lang][kind])} {word}"
        return word

    target = f" {who(action['target'])}" if "target" in action else ""
    if kind in ("income", "foreign_aid"):
        return verb(kind)
    if kind == "coup":
        return verb("coup") + target
    if kind in ("tax", "assassinate", "steal", "exchange", "examine"):
        claim = CLAIM_OF.get(kind, fifth)
        if rng.random() < 0.5:
            return f"{verb('claim')} {role(claim)}{target}"
        return verb(kind) + target
    if kind == "block":
        blocks = [a for a in legal if a["type"] == "block"]
        pick = rng.random()
        if len(blocks) == 1 and pick < 0.3:
            return verb("block")
        if pick < 0.6:
            return f"{verb('claim')} {role(action['role'])}"
        return f"{verb('block')} {role(action['role'])}"
    if kind in ("lose", "show"):
        choices = [a for a in legal if a["type"] == kind]
        if len(choices) == 1 and rng.random() < 0.3:
            return verb(kind)
        return f"{verb(kind)} {role(action['role'])}"
    if kind == "keep":
        roles = list(action["roles"])
        rng.shuffle(roles)
        return f"{verb('keep')} " + " ".join(role(r) for r in roles)
    if kind == "draft":
        return f"{verb('draft')} {role(action['role'])}"
    return verb(kind)  # challenge, allow, prove, concede, examine_return, examine_swap


def same_action(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.get("type") == b.get("type") == "keep":
        return Counter(a["roles"]) == Counter(b["roles"])
    return a == b


def expected_legal(view: dict[str, Any], seat: int) -> list[dict[str, Any]] | None:
    """What the rules allow ``seat`` now, worked out from its own view (None: cannot tell)."""
    stage, pending = view["stage"], view.get("pending") or {}
    hand = view.get("hand") or []
    n = view["players"]
    distinct = list(dict.fromkeys(hand))
    if stage == "turn":
        coins = view["coins"][seat]
        targets = [x % n for x in range(seat + 1, seat + n) if view["alive"][x % n]]
        coups = [{"type": "coup", "target": t} for t in targets] if coins >= 7 else []
        if coins >= 10:
            return coups
        out = [{"type": "income"}, {"type": "foreign_aid"}, *coups, {"type": "tax"}]
        if coins >= 3:
            out += [{"type": "assassinate", "target": t} for t in targets]
        out += [{"type": "steal", "target": t} for t in targets] + [{"type": "exchange"}]
        if view["fifth"] == "inquisitor":
            out += [{"type": "examine", "target": t} for t in targets]
        return out
    if stage in ("challenge_action", "challenge_block"):
        return [{"type": "challenge"}, {"type": "allow"}]
    if stage == "block":
        roles = {"foreign_aid": ["duke"], "assassinate": ["contessa"],
                 "steal": ["captain", view["fifth"]]}[pending["action"]]
        return [{"type": "block", "role": r} for r in roles] + [{"type": "allow"}]
    if stage == "prove":
        return ([{"type": "prove"}] if pending["challenged_role"] in hand else []) + [{"type": "concede"}]
    if stage in ("lose", "examine_show"):
        return [{"type": "lose" if stage == "lose" else "show", "role": r} for r in distinct]
    if stage == "examine_decide":
        return [{"type": "examine_return"}, {"type": "examine_swap"}]
    return None


def canon(actions: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


# -- offline: words, verbs, nested messages ------------------------------------------------------

def test_role_words_every_language_and_prefix():
    from commands.base import CommandError
    from commands.games.coup import parse_role

    for lang in LANGS:
        for role, words in ROLE_WORDS[lang].items():
            for word in words:
                assert parse_role(word) == role, (lang, word)
    for word in ("губ", "du", "княж", "граф", "graf", "Капитан", "СЛЕДОВАТЕЛЬ", "посла", "герцогиней"):
        parse_role(word)
    for word in ("по", "a", "к"):  # полицейский/посол, assassin/ambassador, капитан/княжна
        with pytest.raises(CommandError) as err:
            parse_role(word)
        assert err.value.message.key == "coup.cmd.ambiguous_role"
    with pytest.raises(CommandError) as err:
        parse_role("король")
    assert err.value.message.key == "coup.cmd.bad_role"


async def test_every_legal_action_has_a_verb(monkeypatch):
    """Random positions of many games: for every seat and every legal action, the text a player
    would type (each language, many forms) parses to exactly that action."""
    import commands.games.coup as verbs
    import commands.load_all  # noqa: F401
    from commands.base import GAME, REGISTRY, TABLE, Ctx, split_args
    from commands.parser import _available, resolve, split_verb
    from games.coup import GAME as ENGINE

    sent: list[dict[str, Any]] = []

    async def capture(ctx: Any, action: dict[str, Any]) -> None:
        sent.append(action)

    monkeypatch.setattr(verbs, "game_action", capture)
    commands = _available(frozenset({TABLE, GAME}), "player", "coup", len(REGISTRY))
    names = ["Анна", "Boris", "Бот-Афанасий", "Бот-Глафира", "Гость", "Дуня", "Борислав", "Ева"]
    checked: Counter = Counter()
    for game_no in range(60):
        rng = random.Random(game_no)
        players = rng.choice([2, 3, 4, 6, 8])
        options = {"role": rng.choice(["advisor", "investigator"])}
        state = ENGINE.new(players, options, game_no)
        table = OfflineTable("coup", state, names[:players], ENGINE.validate_options(options))
        world = SimpleNamespace(tables=SimpleNamespace(table_of=lambda _id, t=table: t))
        for _ in range(400):
            if ENGINE.outcome(state) is not None:
                break
            for seat in range(players):
                legal = ENGINE.legal(state, seat)
                view = ENGINE.view(state, seat)
                for action in legal:
                    for lang in LANGS:
                        text = command_for(action, lang, names[:players], legal, view["fifth"], rng)
                        verb, rest = split_verb(text)
                        cmd, _ = resolve(verb, commands)
                        assert cmd is not None and cmd.game == "coup", text
                        ctx = Ctx(session=None, world=world, account=SimpleNamespace(id=seat), verb=verb,
                                  rest=rest, args=split_args(rest), command=cmd)
                        sent.clear()
                        await cmd.handler(ctx)
                        assert len(sent) == 1 and same_action(sent[0], action), (text, action, sent)
                        checked[action["type"]] += 1
                expected = expected_legal(view, seat) if legal else None
                if expected is not None:
                    assert canon(legal) == canon(expected), (view, legal)
            waits = ENGINE.awaiting(state)
            wait = rng.choice(waits)
            ENGINE.apply(state, wait.seat, rng.choice(ENGINE.legal(state, wait.seat)))
    every = {"income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine",
             "challenge", "allow", "block", "prove", "concede", "lose", "keep", "show",
             "examine_return", "examine_swap", "draft"}
    assert every <= set(checked), every - set(checked)


def test_status_says_until_when_to_those_not_awaited():
    """Every change shows what is pending; whoever is not to act also learns whom the game waits
    for and until when, once per wait, and not for a wait on bots alone (they answer at once)."""
    from games.base import SPECTATOR
    from games.coup import GAME as ENGINE
    from world.i18n import strip_marks, t
    from world.presenters.coup import status

    def lines(view, seat, seconds, awaited):
        return [strip_marks(t("ru", m.key, **m.params)) for m in status(table, view, seat, seconds, awaited)]

    state = ENGINE.new(3, {}, 7)
    state.active = 0
    ENGINE.apply(state, 0, {"type": "tax"})  # Анна claims the Governor: a window for Boris and the bot
    table = SimpleNamespace(number=901, game_name="coup", options={"role": "advisor"},
                            seats=[SimpleNamespace(name=n, played_by_bot=b)
                                   for n, b in (("Анна", False), ("Boris", False), ("Бот-Евсей", True))])
    awaited = {w.seat for w in ENGINE.awaiting(state)}
    assert awaited == {1, 2}
    anna = lines(ENGINE.view(state, 0), 0, 20, awaited)
    assert "Ждём: Boris (осталось 20 секунд)." in anna
    # The declaration's own line said what is pending: the status does not say it again.
    assert not any(line.startswith("Сейчас:") for line in anna), anna
    assert lines(ENGINE.view(state, 0), 0, 19, awaited) == []  # the same wait: nothing again
    boris = lines(ENGINE.view(state, 1), 1, 20, awaited)
    assert not any(line.startswith("Ждём") for line in boris)  # he is to act: his own move says it
    assert any(line.startswith("Можно ответить (осталось 20 секунд): вызов") for line in boris), boris
    ENGINE.apply(state, 1, {"type": "allow"})  # only the bot is left: no "waiting for" line
    watcher = lines(ENGINE.view(state, SPECTATOR), None, 18, {2})
    assert watcher and not any(line.startswith("Ждём") for line in watcher)


def test_waiting_for_people_is_said_when_someone_new_is_awaited():
    """The shared line of the Coup, «Шептуны» and «Революция» statuses: whom of the people the
    game waits for, when the wait is new or someone new is awaited, not as the others answer."""
    from world.i18n import strip_marks, t
    from world.presenters import people_awaited, waiting_for_people

    table = SimpleNamespace(seats=[SimpleNamespace(name=n, played_by_bot=b) for n, b in
                                   (("Анна", False), ("Boris", False), ("Бот-Евсей", True), ("Ева", False))])
    view = {"stage": "fight"}
    people = people_awaited(table, {1, 2, 3})
    assert people == {1, 3}

    def said(game, people, earlier, new_wait, seconds=30):
        line = waiting_for_people(game, table, view, people, earlier, new_wait, seconds)
        return None if line is None else strip_marks(t("ru", line.key, **line.params))

    assert said("revolution", people, frozenset(), True) == "Ждём: Boris, Ева (осталось 30 секунд)."
    assert said("revolution", frozenset({3}), people, False) is None  # Boris answered: nothing new
    assert said("whispers", frozenset({3}), frozenset({1}), False) == "Ждём: Ева (осталось 30 секунд)."
    assert said("coup", frozenset({3}), frozenset({1}), False, seconds=1) == "Ждём: Ева (осталась 1 секунда)."
    assert said("coup", frozenset({3}), frozenset({1}), False, seconds=3) == "Ждём: Ева (осталось 3 секунды)."
    assert said("coup", people_awaited(table, {2}), frozenset(), True) is None  # a bot alone
    assert said("coup", people, frozenset(), True, seconds=None) is None

    from world.presenters import waiting_line

    def look(awaited, viewer):  # `look`'s line: the viewer is not told it waits for them
        line = waiting_line("coup", table, view, awaited, 30, viewer)
        return None if line is None else strip_marks(t("ru", line.key, **line.params))

    assert look({0}, 0) is None
    assert look({0, 1}, 0) == "Ждём: Boris (осталось 30 секунд)."
    assert look({0, 1}, None) == "Ждём: Анна, Boris (осталось 30 секунд)."  # a watcher


def test_nested_messages_render_per_reader_and_survive_json():
    from world.i18n import nested, nested_list, strip_marks, t
    from world.presenters import present_params

    table = SimpleNamespace(number=1, game_name="coup", options={"role": "advisor"},
                            seats=[SimpleNamespace(name="Анна"), SimpleNamespace(name="Boris")])
    raw = {"actor_seat": 0, "action": "steal", "target_seat": 1, "claim": "captain"}
    params = json.loads(json.dumps(present_params(table, raw)))  # as an inbox item keeps it
    assert strip_marks(t("ru", "coup.declare", **params)) == (
        "Анна называет себя Полицейским и хочет забрать 2 монеты у игрока Boris.")
    assert strip_marks(t("en", "coup.declare", **params)) == (
        "Анна claims to be the Captain and tries to take 2 coins from Boris.")
    assert "Капітаном" in t("uk", "coup.declare", **params)
    hand = json.loads(json.dumps(present_params(table, {"seat": 1, "roles": ["duke", "contessa"]})))
    assert strip_marks(t("ru", "coup.hand", **hand)) == "Мастер шепчет: ваши карты — Губернатор, Княжна."
    assert strip_marks(t("uk", "coup.hand", **hand)) == "Майстер шепоче: ваші карти — Герцогиня, Графиня."
    assert strip_marks(t("en", "coup.hand", **hand)) == "The Master whispers: your cards are Duke, Contessa."
    assert (t("ru", "coup.role.duke"), t("uk", "coup.role.duke"), t("en", "coup.role.duke")) == (
        "Губернатор", "Герцогиня", "Duke")
    assert t("en", "game.coup") == "Coup" and t("ru", "game.coup") == "Переворот"
    assert t("uk", "coup.blocked", actor_seat="A", action=nested("coup.action.steal")) == (
        "Блок у силі: дія «Крадіжка» гравця A не відбулася.")
    assert t("en", "coup.view.hand", roles=nested_list([nested("coup.role.duke"), "x"])) == "Your cards: Duke, x."
    # Plural coins, the right Russian and Ukrainian forms.
    for lang, forms in (("ru", ("1 монета", "2 монеты", "5 монет", "21 монета")),
                        ("uk", ("1 монета", "2 монети", "5 монет", "21 монета")),
                        ("en", ("1 coin", "2 coins", "5 coins", "21 coins"))):
        for n, form in zip((1, 2, 5, 21), forms):
            assert f"({form})" in strip_marks(t(lang, "coup.turn", seat="A", coins=n))
    assert "1 монету" in t("ru", "coup.refund", seat="A", amount=1)
    assert "3 монеты" in t("ru", "coup.refund", seat="A", amount=3)


# -- over the wire -------------------------------------------------------------------------------

def parse_error_signatures() -> list[str]:
    """Fixed text of the messages that mean "that command was not understood"."""
    return error_signatures(lambda cat: [k for k in cat if k.startswith("coup.cmd.")])


def assert_understood(text: str, who: str) -> None:
    wire.assert_understood(text, who, parse_error_signatures())


class Player(WirePlayer):
    """A person at the Coup table (tests/wire.py): mostly coups when they can, now and then a
    challenge or a block, else anything legal."""

    winner_key = "coup.winner"

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        rng = self.rng
        coups = [a for a in legal if a["type"] == "coup"]
        if coups and rng.random() < 0.8:
            return rng.choice(coups)
        kinds = {a["type"] for a in legal}
        if "challenge" in kinds:
            return {"type": "challenge"} if rng.random() < 0.25 else {"type": "allow"}
        if "block" in kinds and rng.random() < 0.5:
            return rng.choice([a for a in legal if a["type"] == "block"])
        return rng.choice(legal)

    def check(self, view: dict[str, Any], awaiting: dict[str, Any]) -> None:
        expected = expected_legal(view, awaiting["seat"])
        if expected is not None:  # GMCP lists exactly the legal actions
            assert canon(awaiting["legal"]) == canon(expected), (view, awaiting["legal"])

    def answer(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        action = self.choose(legal)
        return action, command_for(action, self.lang, self.names(), legal, view["fifth"], self.rng)


async def test_whole_game_telnet_ssh_and_bots(server):
    """Anna (telnet, Russian) and Boris (SSH, English) play with two bots to the end; a guest
    (Ukrainian) watches and hears no whisper."""
    anna, boris, boris_eyes, guest = await company(server)

    await sit_down_and_start(anna, boris, guest,
                             "открыть переворот reaction=5 turn=10 seats=4 challenge_order=first", 2)
    await anna.expect("Начинается «Переворот»", timeout=10)
    await boris.expect("Coup begins", timeout=10)
    await guest.expect("Починається «Переворот»", timeout=10)

    until = asyncio.get_running_loop().time() + 150
    players = [Player("Анна", "ru", anna, anna, 1), Player("Boris", "en", boris, boris_eyes, 2)]
    await asyncio.gather(*(p.play(until) for p in players))
    await anna.expect(FINISHED, timeout=15)
    await boris.expect(FINISHED, timeout=15)
    await guest.expect(FINISHED, timeout=15)
    assert all(p.awaitings > 0 for p in players)

    assert_understood(anna.text, "Анна")
    assert_understood(boris.text, "Boris")
    # Each reads the game in their own language, role names included.
    assert re.search(r"Ходит \S+ \(\d+ монет", anna.text)
    assert re.search(r"Мастер шепчет: ваши карты — (Губернатор|Убийца|Полицейский|Советник|Княжна)", anna.text)
    assert re.search(r"'s turn \(\d+ coins?\)", boris.text)
    assert re.search(r"The Master whispers: your cards are (Duke|Assassin|Captain|Ambassador|Contessa)", boris.text)
    assert re.search(r"Ходить \S+ \(\d+ монет", guest.text)
    assert "шепоче" not in guest.text and "шепчет" not in guest.text
    # The table as it changes: coins and cards of everyone, in the status line.
    assert re.search(r"\[ход \d+\] Анна: \d+ монет", anna.text)
    assert re.search(r"\[turn \d+\] Анна: \d+ coins?", boris.text)
    # GMCP: the watcher gets the public view only; whispers reach only their seat.
    for name, data in guest.gmcp_messages:
        assert not (name == "Korchma.Game.Event" and data["whisper"])
        if name == "Korchma.Game.View":
            assert "hand" not in data["view"]
    for name, data in anna.gmcp_messages:
        if name == "Korchma.Game.Event" and data["whisper"]:
            assert data["params"].get("seat") == 0
    for client in (anna, boris_eyes, guest):
        await client.close()
    await boris.close()


async def test_the_big_table_of_ten_is_asked_for(server):
    """coup.md #1: 9-10 players are an optional table: `open coup` seats 8, `seats=10` seats ten,
    dealt from 5 copies of each role (25 cards: 20 in hands, 5 in the Court)."""
    anna = await log_in(server.telnet_port, "Анна", gmcp=True)
    first = await open_table(anna, "открыть переворот")
    anna.send_line("боты 9")
    await anna.expect("За стол садятся 7 ботов")  # 8 seats
    anna.send_line("встать")
    await anna.expect("Вы встаёте")
    number = await open_table(anna, "открыть переворот seats=10")
    assert number != first
    anna.send_line("боты 9 лёгкий")
    await anna.expect("За стол садятся 9 ботов")
    anna.mark_here()
    anna.send_line("начать")
    await anna.expect("10 игроков")
    view = None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while view is None and loop.time() < deadline:
        views = [data["view"] for name, data in anna.gmcp_messages  # (no exchange under way on a turn)
                 if name == "Korchma.Game.View" and data["view"]["stage"] == "turn"]
        view = views[0] if views else None
        await asyncio.sleep(0.05)
    assert view is not None and view["players"] == 10 and len(view["hand"]) in (1, 2)
    assert sum(view["cards"]) + sum(len(f) for f in view["face_up"]) + view["court"] == 25
    await anna.close()


async def test_roles_and_rules_at_a_coup_table_are_coup_s(server):
    """`roles` and `rules` with no argument answer for the game at your table: at a Coup table
    «роли» lists the five roles in play (the fifth as the table chose) with what each does and
    blocks, not Mafia's public roles; `rules` alone gives the table's rules. In the hall «роли»
    is still Mafia's list and `rules` the list of games."""
    anna = await log_in(server.telnet_port, "Анна")
    anna.send_line("роли")
    await anna.expect("Явные роли Мафии")
    anna.send_line("правила")
    await anna.expect("Есть правила игр:")
    number = await open_table(anna, "открыть переворот role=investigator seats=4")
    anna.mark_here()
    anna.send_line("роли")
    await anna.expect(f"Роли «Переворота» за столом {number}, по 3 карты каждой (по 4 при 7-8 игроках")
    await anna.expect("Все правила: правила.")
    text = " ".join(anna.text[anna.text.rfind("Роли «Переворота»"):].split())  # (lines wrap at 80)
    assert "Следователь — обмен (взять 1 карту, вернуть 1) или допрос игрока" in text
    assert "Княжна — блокирует убийство." in text
    assert "Советник" not in text and "Мафии" not in text
    anna.send_line("правила")
    await anna.expect("Переворот (Coup, 2-8 игроков")
    await anna.expect("Есть правила игр:")
    anna.send_line("боты 3")
    await anna.expect("За стол садятся 3 бота")
    anna.send_line("начать")
    await anna.expect("Мастер начинает игру")
    anna.mark_here()
    anna.send_line("роли")
    await anna.expect(f"Роли «Переворота» за столом {number}, по 3 карты каждой:")
    guest = await log_in(server.telnet_port, "Vera")
    guest.send_line("lang en")
    await guest.expect("Language: English")
    guest.send_line(f"watch {number}")
    await guest.expect(f"table {number}")
    guest.mark_here()
    guest.send_line("roles")
    await guest.expect(f"The roles of Coup at table {number}, 3 cards of each:")
    await guest.expect("All the rules: rules.")
    text = " ".join(guest.text[guest.text.rfind("The roles of Coup"):].split())
    assert "Inquisitor: exchange (draw 1 card, return 1) or examine a player. Blocks stealing." in text
    assert "Duke: tax, take 3 coins. Blocks foreign aid." in text
    for client in (anna, guest):
        await client.close()


async def test_one_human_and_bots_in_ukrainian_with_the_inquisitor(server):
    """One player (Ukrainian) and three bots, the Inquisitor in the deck: to the end."""
    olena = await log_in(server.telnet_port, "Олена", gmcp=True)
    olena.send_line("мова uk")
    await olena.expect("Мова: українська")
    await open_table(olena, "відкрити переворот role=investigator reaction=5 turn=10 seats=4")
    olena.send_line("боти 3")
    await olena.expect("бот")
    olena.send_line("почати")
    await olena.expect("п'ята роль — Інквізитор", timeout=10)
    olena.send_line("карти")
    await olena.expect(re.compile(r"Стіл \d+: «Переворот», хід \d+"))
    await olena.expect("Ваші карти:")
    player = Player("Олена", "uk", olena, olena, 7)
    await player.play(asyncio.get_running_loop().time() + 150)
    await olena.expect(FINISHED, timeout=15)
    assert player.awaitings > 0
    assert_understood(olena.text, "Олена")
    assert re.search(r"Майстер шепоче: ваші карти — (Герцогиня|Вбивця|Капітан|Інквізитор|Графиня)", olena.text)
    olena.send_line("rules coup")
    await olena.expect("Переворот")
    await olena.expect("Інквізитор")
    await olena.close()


async def _awaiting(player: Player, after: int, stage: str,
                    timeout: float = 8.0) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """The first Awaiting (at index >= after) that asks this player for something in ``stage``,
    with the view sent just before it; and the index to look from next."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        msgs = player.eyes.gmcp_messages
        for i in range(after, len(msgs)):
            name, data = msgs[i]
            if name == "Korchma.Game.Awaiting" and data["legal"]:
                _, view = player.latest("Korchma.Game.View", before=i)
                if view["view"]["stage"] == stage:
                    return i + 1, data, view["view"]
        left = deadline - loop.time()
        assert left > 0, f"{player.name}: not asked anything in {stage}"
        await player.next_change(len(msgs), left)


async def test_two_people_claim_challenge_block_in_both_languages(server):
    """Two players, no bots: the draft, then a Duke claim challenged and proven, a steal blocked
    with the Captain and the block challenged; Russian and English role names; GMCP Awaiting lists
    exactly the legal actions at each step. Then the game is played out."""
    anna = await log_in(server.telnet_port, "Анна", gmcp=True)
    boris = await log_in(server.telnet_port, "Boris", gmcp=True)
    boris.send_line("lang en")
    await boris.expect("Language: English")
    number = await open_table(anna, "открыть переворот reaction=5 turn=10 seats=2")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("начать")
    await anna.expect("Игра вдвоём", timeout=10)
    people = {"Анна": Player("Анна", "ru", anna, anna, 3), "Boris": Player("Boris", "en", boris, boris, 4)}
    drafts = [{"type": "draft", "role": r} for r in ("duke", "assassin", "captain", "ambassador", "contessa")]
    marks = {}
    for name, player in people.items():
        marks[name], awaiting, _ = await _awaiting(player, 0, "draft")
        assert canon(awaiting["legal"]) == canon(drafts)
    anna.send_line("выбрать губ")
    boris.send_line("draft Duke")
    await anna.expect("ваши карты — ")
    await boris.expect("your cards are ")

    # Whoever starts (random) claims the Duke; the other challenges; the claim is proven.
    first = None
    turns = {name: asyncio.ensure_future(_awaiting(player, marks[name], "turn")) for name, player in people.items()}
    done, pending = await asyncio.wait(turns.values(), timeout=10, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    first = next(name for name, task in turns.items() if task in done)
    second = "Boris" if first == "Анна" else "Анна"
    p, q = people[first], people[second]
    say = {"Анна": lambda ru, en: ru, "Boris": lambda ru, en: en}
    names = p.names()
    p_seat, q_seat = names.index(first), names.index(second)

    _, turn, view = turns[first].result()
    assert view["coins"][p_seat] == 1 and view["coins"][q_seat] == 2  # [2P] the starter has 1 coin
    assert canon(turn["legal"]) == canon([{"type": "income"}, {"type": "foreign_aid"}, {"type": "tax"},
                                          {"type": "steal", "target": q_seat}, {"type": "exchange"}])
    mark_q = len(q.eyes.gmcp_messages)
    p.typer.send_line(say[first]("заявить губ", "claim duke"))
    mark_q, reaction, _ = await _awaiting(q, mark_q, "challenge_action")
    assert canon(reaction["legal"]) == canon([{"type": "challenge"}, {"type": "allow"}])
    mark_p = len(p.eyes.gmcp_messages)
    q.typer.send_line(say[second]("вызов", "challenge"))
    mark_p, proof, _ = await _awaiting(p, mark_p, "prove")
    assert canon(proof["legal"]) == canon([{"type": "prove"}, {"type": "concede"}])
    p.typer.send_line(say[first]("доказать", "prove"))
    await anna.expect(re.compile(r"показывает карту: Губернатор\. Правда!"))
    await boris.expect(re.compile(r"shows the Duke: it was true"))
    mark_q, loss, view = await _awaiting(q, mark_q, "lose")
    hand = view["hand"]
    assert canon(loss["legal"]) == canon([{"type": "lose", "role": r} for r in dict.fromkeys(hand)])
    lost = hand[0]
    q.typer.send_line(f"{say[second]('сбросить', 'lose')} {ROLE_WORDS['ru' if second == 'Анна' else 'en'][lost][0]}")
    await anna.expect(re.compile(r"собирает налог: 3 монеты"))
    await boris.expect(re.compile(r"collects tax: 3 coins"))

    # The other's turn: a steal; the first lets it pass, then blocks with the Captain; the block
    # is challenged and conceded: the first loses a card and the steal goes through.
    mark_q, turn, view = await _awaiting(q, mark_q, "turn")
    assert {"type": "steal", "target": p_seat} in turn["legal"] and view["stage"] == "turn"
    mark_p = len(p.eyes.gmcp_messages)
    q.typer.send_line(say[second](f"украсть {first[:2]}", f"steal {first[:2]}"))
    mark_p, reaction, _ = await _awaiting(p, mark_p, "challenge_action")
    assert canon(reaction["legal"]) == canon([{"type": "challenge"}, {"type": "allow"}])
    p.typer.send_line(say[first]("пропустить", "allow"))
    mark_p, block, view = await _awaiting(p, mark_p, "block")
    assert view["stage"] == "block"
    assert canon(block["legal"]) == canon([{"type": "block", "role": "captain"},
                                           {"type": "block", "role": "ambassador"}, {"type": "allow"}])
    mark_q = len(q.eyes.gmcp_messages)
    p.typer.send_line(say[first]("блок полиц", "block Captain"))
    if first == "Анна":
        await boris.expect("Block! Анна claims to be the Captain and blocks Boris.")
    else:
        await anna.expect("Блок! Boris называет себя Полицейским и блокирует ход игрока Анна.")
    mark_q, reaction, _ = await _awaiting(q, mark_q, "challenge_block")
    assert canon(reaction["legal"]) == canon([{"type": "challenge"}, {"type": "allow"}])
    mark_p = len(p.eyes.gmcp_messages)
    q.typer.send_line(say[second]("сомневаюсь", "challenge"))
    mark_p, proof, view = await _awaiting(p, mark_p, "prove")
    assert {"type": "concede"} in proof["legal"] and view["stage"] == "prove"
    p.typer.send_line(say[first]("сдаться", "concede"))
    mark_p, loss, view = await _awaiting(p, mark_p, "lose")
    assert view["stage"] == "lose"
    p.typer.send_line(f"{say[first]('сбросить', 'lose')} {ROLE_WORDS['ru' if first == 'Анна' else 'en'][view['hand'][-1]][1]}")
    await anna.expect(re.compile(r"забирает 2 монеты у игрока"))
    await boris.expect(re.compile(r"takes 2 coins from"))

    # The rest of the game, as the players please.
    until = asyncio.get_running_loop().time() + 120
    await asyncio.gather(*(player.play(until) for player in people.values()))
    await anna.expect(FINISHED, timeout=15)
    await boris.expect(FINISHED, timeout=15)
    assert_understood(anna.text, "Анна")
    assert_understood(boris.text, "Boris")
    await anna.close()
    await boris.close()


async def test_away_player_finds_the_game_in_their_language(server_factory):
    """Events kept in the inbox (role names as nested messages, stored as JSON) read right later."""
    # login_lines: the whole game is printed at login here (by default a long one is summed up
    # and read with `inbox table N`: tests/test_inbox_folders.py), to read every kept event.
    srv = server_factory("[tables]\nafk_timeouts = 1\nbot_delay = 0.05\n[inbox]\nlogin_lines = 10000")
    anna = await log_in(srv.telnet_port, "Анна")
    number = await open_table(anna, "открыть переворот reaction=5 turn=10 seats=3")
    anna.send_line("боты 2")
    await anna.expect("За стол садятся 2 бота")
    anna.send_line("начать")
    await anna.expect("Мастер шепчет: ваши карты", timeout=10)
    anna.send_line("quit")
    await anna.close()
    await asyncio.sleep(12)  # her waits time out, a bot plays for her; events wait in the inbox
    anna = await log_in(srv.telnet_port, "Анна", create=False)
    await anna.expect("Пока вас не было")
    await anna.expect(re.compile(rf"Вы снова за столом {number}|Игра за столом {number} окончена"), timeout=30)
    await anna.settle(0.3)
    text = anna.text
    assert re.search(r"Ходит \S+ \(\d+ монет", text)
    assert "$msg" not in text and "{" not in text and "coup." not in text
    for claim in re.findall(r"называет себя (\S+)", text):
        assert claim.rstrip(",") in ("Губернатором", "Убийцей", "Полицейским", "Советником", "Княжной"), claim
    await anna.close()
