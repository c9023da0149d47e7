"""«Шептуны» (Jabberjay) at a real table, over telnet and SSH, in Russian, English and Ukrainian.

Offline tests at the top check the pieces without a server: card words in every language and by
prefix, the verbs against every legal action of many random positions (each text a player would
type parses to exactly that action), clear errors for words that name no card or no player, and
every event key rendered in ru/en/uk from parameters that went through a JSON round trip (the
inbox), the table view and the status line.

Then over the wire: a whole classic game of five (Anna on telnet in Russian, Boris on SSH in
English, three bots; a Ukrainian guest watches), and a cooperative game of two people where the
server seats the Peacekeeper bots. The humans are driven as a MUD client script would drive them:
read GMCP ``Korchma.Game.Awaiting`` (the exact legal actions), answer each wait once, and type
the matching text command in the player's language. The SSH player has no GMCP: a second telnet
session of the same account reads it for him, and the SSH side types.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
from types import SimpleNamespace
from typing import Any

import pytest

from tests import wire
from tests.offline import OfflineTable, game_commands, typed
from tests.telnet_client import log_in
from tests.wire import (FINISHED, WirePlayer, accusative, company, error_signatures, open_table,
                       sit_down_and_start, unique_prefix)

LANGS = ("en", "ru", "uk")
LEFTOVER_KEY = re.compile(r"whispers\.[a-z]")  # a message key shown instead of its text

# Words a player may type for each card, per language: names, other forms, prefixes, numbers.
CARD_WORDS = {
    "en": {1: ["ignored", "Ignored", "ign", "1"], 2: ["hidden", "HIDDEN", "hid", "2"],
           3: ["accused", "acc", "Accused", "3"], 4: ["exposed", "exp", "Exposed", "4"],
           5: ["fled", "Fled", "fle", "5"]},
    "ru": {1: ["игнорируемый", "Игнорируемого", "игн", "1"], 2: ["скрывшийся", "скрывшегося", "скр"],
           3: ["обвиняемый", "обвиняемого", "Обвиняемую", "обв"], 4: ["незащищенный", "незащищённого", "незащ"],
           5: ["сбежавший", "сбежавшего", "беглец", "Беглеца", "сбеж"]},
    "uk": {1: ["ігнорований", "Ігнорованого", "ігн"], 2: ["прихований", "прихованого", "прих"],
           3: ["обвинувачений", "обвинуваченого", "обвинув"], 4: ["незахищений", "незахищеного", "незах"],
           5: ["втікач", "Втікача", "вті", "5"]},
}
VERBS = {
    "en": {"place": ["place", "put"], "pass": ["pass", "give"], "discard": ["discard", "drop"]},
    "ru": {"place": ["положить", "кладу"], "pass": ["передать", "отдать"], "discard": ["сбросить", "скинуть"]},
    "uk": {"place": ["покласти"], "pass": ["передати", "віддати"], "discard": ["скинути"]},
}
ON = {"en": "on", "ru": "на", "uk": "на"}
NAMES = ["Анна", "Boris", "Бот-Афанасий", "Бот-Глафира", "Гость", "Дуня", "Борислав", "Ева", "Иван",
         "Олена", "Пётр", "Zoe"]


def command_for(action: dict[str, Any], lang: str, names: list[str], legal: list[dict[str, Any]],
                hand: list[int], rng: random.Random) -> str:
    """The text a player types for ``action``, varied: verbs, card words, names and orders."""
    kind = action["type"]
    words = VERBS[lang]

    def card(rank: int) -> str:
        return rng.choice(CARD_WORDS[lang][rank])

    def who(seat: int) -> str:
        name = names[seat]
        forms = [name, unique_prefix(name, names), name.lower()]
        if lang == "ru":
            forms.append(accusative(name))
        return rng.choice(forms)

    if kind == "place":
        verb = rng.choice(words["place"])
        rank, target = action["card"], action["target"]
        targets = [a["target"] for a in legal if a["type"] == "place" and a["card"] == rank]
        pick = rng.random()
        if len(set(hand)) == 1 and pick < 0.2:
            return f"{verb} {ON[lang]} {who(target)}" if rng.random() < 0.5 else f"{verb} {who(target)}"
        if len(targets) == 1 and pick < 0.3:
            return f"{verb} {card(rank)}"
        if pick < 0.55:
            return f"{verb} {card(rank)} {ON[lang]} {who(target)}"
        if pick < 0.8:
            return f"{verb} {card(rank)} {who(target)}"
        return f"{verb} {who(target)} {card(rank)}"
    if kind == "pass":
        return f"{rng.choice(words['pass'])} {who(action['target'])}"
    if kind == "discard_pass":
        return rng.choice(words["discard"])
    if kind == "swap":
        swaps = {a["card"] for a in legal if a["type"] == "swap"}
        if len(swaps) == 1 and rng.random() < 0.4:
            return rng.choice(words["discard"])
        return f"{rng.choice(words['discard'])} {card(action['card'])}"
    raise AssertionError(f"no verb for {action}")


def canon(actions: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


# -- offline: card words ---------------------------------------------------------------------------

def test_card_words_every_language_and_prefix():
    from commands.base import CommandError
    from commands.games.whispers import parse_card

    for lang in LANGS:
        for rank, words in CARD_WORDS[lang].items():
            for word in words:
                assert parse_card(word) == rank, (lang, word)
    for word, rank in (("Ignored", 1), ("IGNORED", 1), ("Hidden", 2), ("Accused", 3), ("Exposed", 4),
                       ("Fled", 5), ("Игнорируемый", 1), ("Скрывшийся", 2), ("Обвиняемый", 3),
                       ("Незащищенный", 4), ("Незащищённый", 4), ("Сбежавший", 5), ("беглец", 5),
                       ("обвиняемого", 3), ("Ігнорований", 1), ("Прихований", 2), ("Обвинувачений", 3),
                       ("Незахищений", 4), ("Втікач", 5), ("«Обвиняемый»", 3), ("#3", 3), ("не", 4),
                       ("об", 3), ("сб", 5), ("h", 2), ("f", 5), ("e", 4), ("a", 3), ("i", 1)):
        assert parse_card(word) == rank, word
    for word in ("с", "s"):  # скрывшийся / сбежавший
        with pytest.raises(CommandError) as err:
            parse_card(word)
        assert err.value.message.key == "whispers.cmd.ambiguous_card"
    for word in ("король", "6", "0", "xyz", "-1"):
        with pytest.raises(CommandError) as err:
            parse_card(word)
        assert err.value.message.key == "whispers.cmd.bad_card"


def _render(lang: str, message: Any) -> str:
    from world.i18n import strip_marks, t

    return strip_marks(t(lang, message.key, **message.params))


def test_card_errors_read_clearly_in_every_language():
    from commands.base import CommandError
    from commands.games.whispers import parse_card

    with pytest.raises(CommandError) as err:
        parse_card("с")
    assert _render("ru", err.value.message) == (
        "с — это может быть: Скрывшийся (2), Сбежавший (5). Наберите ещё пару букв.")
    assert _render("en", err.value.message) == "с could be: Hidden (2), Fled (5). Type a few more letters."
    with pytest.raises(CommandError) as err:
        parse_card("король")
    assert _render("uk", err.value.message) == (
        "Немає карти король. Карти: Ігнорований (1), Прихований (2), Обвинувачений (3), Незахищений (4), Втікач (5).")
    assert _render("en", err.value.message).startswith("No card called король. Cards: Ignored (1), Hidden (2)")


# -- offline: verbs against every legal action ----------------------------------------------------

async def test_every_legal_action_has_a_verb(monkeypatch):
    """Random positions of many games (classic and cooperative, 5 to 12 seats): for the awaited
    seat and every legal action, the text a player would type (each language, many forms)
    parses to exactly that action."""
    import commands.games.whispers as verbs
    from games.whispers import GAME as ENGINE

    sent: list[dict[str, Any]] = []

    async def capture(ctx: Any, action: dict[str, Any]) -> None:
        sent.append(action)

    monkeypatch.setattr(verbs, "game_action", capture)
    checked: dict[str, int] = {}
    for game_no in range(40):
        rng = random.Random(game_no)
        players = rng.choice([5, 6, 7, 8, 10, 12, 4, 3])
        options: dict[str, Any] = {"return_rule": rng.choice(["all", "one"])}
        if players < 5:
            options["peacekeepers_from"] = rng.choice([2, players - 1]) if players > 2 else 1
        names = NAMES[:players]
        state = ENGINE.new(players, options, game_no)
        table = OfflineTable("whispers", state, names, ENGINE.validate_options(options))
        for _ in range(300):
            if ENGINE.outcome(state) is not None:
                break
            (wait,) = ENGINE.awaiting(state)
            seat = wait.seat
            legal = ENGINE.legal(state, seat)
            view = ENGINE.view(state, seat)
            for other in range(players):
                if other != seat:
                    assert ENGINE.legal(state, other) == []
            for action in legal:
                for lang in LANGS:
                    text = command_for(action, lang, names, legal, view["hand"], rng)
                    sent.clear()
                    await typed(table, seat, text)
                    assert sent == [action], (text, action, sent, view["hand"])
                    checked[action["type"]] = checked.get(action["type"], 0) + 1
            action = rng.choice(legal) if rng.random() < 0.5 else ENGINE.bot_action(view, legal, rng, "normal")
            ENGINE.apply(state, seat, action)
    assert {"place", "pass", "discard_pass", "swap"} <= set(checked), checked


async def test_verbs_say_what_is_wrong(monkeypatch):
    """Unknown card words, ambiguous starts, unknown players, and `place` with no words."""
    import commands.games.whispers as verbs
    from commands.base import CommandError
    from games.whispers import GAME as ENGINE

    sent: list[dict[str, Any]] = []

    async def capture(ctx: Any, action: dict[str, Any]) -> None:
        sent.append(action)

    monkeypatch.setattr(verbs, "game_action", capture)
    names = ["Анна", "Boris", "Бот-Афанасий", "Бот-Глафира", "Борислав"]
    state = ENGINE.new(5, {}, 7)
    table = OfflineTable("whispers", state, names, ENGINE.validate_options({}))
    while ENGINE.awaiting(state)[0].seat not in (0, 1) or ENGINE.view(state, 0)["stage"] != "place":
        seat = ENGINE.awaiting(state)[0].seat
        ENGINE.apply(state, seat, ENGINE.legal(state, seat)[0])
    seat = ENGINE.awaiting(state)[0].seat
    hand = ENGINE.view(state, seat)["hand"]
    other = next(s for s in range(5) if s != seat and names[s] not in ("Boris", "Борислав"))

    async def error(text: str) -> Any:
        sent.clear()
        with pytest.raises(CommandError) as err:
            await typed(table, seat, text)
        assert not sent
        return err.value.message

    message = await error(f"place xyz {names[other]}")
    assert message.key == "whispers.cmd.bad_card"
    message = await error(f"положить с на {names[other]}")
    assert message.key == "whispers.cmd.ambiguous_card"
    assert "Скрывшийся (2), Сбежавший (5)" in _render("ru", message)
    message = await error(f"place {hand[0]} on Zed")
    assert message.key == "whispers.cmd.no_player"
    assert _render("en", message) == "Nobody called Zed plays at this table."
    assert _render("ru", message) == "За этим столом нет игрока Zed."
    message = await error(f"положить {hand[0]} на Бот")
    assert message.key == "whispers.cmd.ambiguous_player"
    assert "Бот-Афанасий, Бот-Глафира" in _render("ru", message)
    if len(set(hand)) > 1:
        message = await error("place")
        assert message.key == "whispers.cmd.place_usage"
        message = await error(f"place {names[other]}")
        assert message.key == "whispers.cmd.which_card"
    # Not one's turn: the verb sends the action and the engine answers (its key is in the catalog).
    from world.i18n import catalog

    for key in ("not_your_turn", "no_such_card", "self_target", "target_full", "target_defeated",
                "target_returned", "bad_target", "bad_action", "game_over", "bad_option", "too_few"):
        for lang in LANGS:
            assert f"whispers.error.{key}" in catalog(lang), (lang, key)


def test_pass_does_not_break_coup_allow():
    """`pass` is Coup's allow at a Coup table and the whispers pass at a «Шептуны» table;
    `сбросить` is Coup's lose there and the whispers discard here."""
    import commands.load_all  # noqa: F401
    from commands.base import GAME, REGISTRY, TABLE
    from commands.parser import _available, resolve

    coup = _available(frozenset({TABLE, GAME}), "player", "coup", len(REGISTRY))
    whispers = _available(frozenset({TABLE, GAME}), "player", "whispers", len(REGISTRY))
    for verb, coup_key, whispers_key in (("pass", "allow", "pass"), ("сбросить", "lose", "discard"),
                                         ("скинути", "lose", "discard"), ("пас", "allow", None),
                                         ("положить", None, "place"), ("передать", None, "pass"),
                                         ("passwd", "password", "password")):
        cmd, _ = resolve(verb, coup)
        assert (cmd.key if cmd else None) == coup_key, verb
        cmd, _ = resolve(verb, whispers)
        assert (cmd.key if cmd else None) == whispers_key, verb
        if cmd is not None and cmd.game is not None:
            assert cmd.game == "whispers"


# -- offline: every event renders in every language, after JSON -----------------------------------

def _fake_table(names: list[str], coop: bool = False) -> Any:
    return SimpleNamespace(number=3, game_name="whispers",
                           options={"peacekeepers_from": 2} if coop else {"turn": 90},
                           seats=[SimpleNamespace(number=i, name=n, played_by_bot=n.startswith("Бот"))
                                  for i, n in enumerate(names)])


EVENT_SAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("whispers.start", {"players": 5, "district": 2, "capitol": 3}),
    ("whispers.start", {"players": 12, "district": 5, "capitol": 7}),
    ("whispers.start_coop", {"players": 5, "peacekeepers": 3}),
    ("whispers.side", {"side": "district"}),
    ("whispers.side", {"side": "capitol"}),
    ("whispers.team", {"seats": [0, 1]}),
    ("whispers.round", {"round": 3, "seat": 1}),
    ("whispers.face_up", {"cards": [[1, 3], [2, 5], [0, 1]]}),
    ("whispers.hand", {"cards": [2, 5]}),
    ("whispers.hand", {"cards": [4]}),
    ("whispers.dealt_defeated", {"card": 4}),
    ("whispers.passed", {"seat": 2, "target_seat": 0}),
    ("whispers.passed_to_you", {"seat": 2, "card": 5}),
    ("whispers.pass_discarded", {"seat": 2}),
    ("whispers.swapped", {"seat": 0}),
    ("whispers.placed", {"seat": 0, "target_seat": 1}),
    ("whispers.you_placed", {"card": 3, "target_seat": 1}),
    ("whispers.returned", {"seat": 4, "n": 0}),
    ("whispers.returned", {"seat": 4, "n": 1}),
    ("whispers.returned", {"seat": 4, "n": 2}),
    ("whispers.returned_open", {"seat": 4, "n": 0}),
    ("whispers.returned_open", {"seat": 4, "n": 1}),
    ("whispers.returned_open", {"seat": 4, "n": 2}),
    ("whispers.reveal.none", {"seat": 1, "cards": [], "status": 2, "prev": 2}),
    ("whispers.reveal.equal", {"seat": 1, "cards": [3, 3], "status": 3, "prev": 1}),
    ("whispers.reveal.higher", {"seat": 1, "cards": [2, 4], "status": 4, "prev": 3}),
    ("whispers.reveal.higher", {"seat": 1, "cards": [2], "status": 2, "prev": 1}),
    ("whispers.reveal.fled_ignored", {"seat": 1, "cards": [3, 5], "status": 3, "prev": 2}),
    ("whispers.reveal.unchanged", {"seat": 1, "cards": [5, 5], "status": 1, "prev": 1}),
    ("whispers.reveal.defeated", {"seat": 1, "cards": [1, 5], "status": 5, "prev": 4, "side": "capitol"}),
    ("whispers.exposed_twice", {"seat": 1, "side": "district"}),
    ("whispers.justice", {"seat": 2}),
    ("whispers.winner", {"side": "district", "seats": [0, 1], "reason": "capitol_defeated",
                         "capitol_defeated": 3, "district_defeated": 1}),
    ("whispers.winner", {"side": "capitol", "seats": [2, 3, 4], "reason": "all_district_revealed"}),
    ("whispers.winner", {"side": "none", "seats": [], "reason": "round_limit"}),
    ("whispers.winner", {"side": "none", "seats": [], "reason": "stalemate"}),
]


def _event_keys_of_engine() -> set[str]:
    from pathlib import Path

    import games.whispers.engine as engine

    # The engine and the modules it split out (placement.py, status.py) emit events.
    text = "".join(path.read_text(encoding="utf-8") for path in sorted(Path(engine.__file__).parent.glob("*.py")))
    keys = set(re.findall(r'"(whispers\.[a-z_.]+[a-z_])"', text))
    keys = {k for k in keys if not k.startswith(("whispers.error.", "whispers.outcome."))}
    keys |= {f"whispers.reveal.{change}" for change in engine.REVEAL_KEYS}
    return keys


def test_every_event_renders_per_reader_and_survives_json():
    from world.i18n import catalog, strip_marks, t
    from world.presenters import present_params

    sampled = {key for key, _ in EVENT_SAMPLES}
    engine_keys = _event_keys_of_engine() - {"whispers.reveal."}
    assert engine_keys <= sampled, engine_keys - sampled
    names = ["Анна", "Boris", "Бот-Евсей", "Дуня", "Ева"]
    for coop in (False, True):
        table = _fake_table(names, coop)
        for key, raw in EVENT_SAMPLES:
            params = json.loads(json.dumps(present_params(table, raw)))  # as an inbox item keeps it
            for lang in LANGS:
                assert key in catalog(lang), (lang, key)
                text = strip_marks(t(lang, key, **params))
                assert "{" not in text and "$msg" not in text and not LEFTOVER_KEY.search(text), (lang, key, text)
                assert "[[" not in text and "'$list'" not in text, (lang, key, text)
                for rank_key in ("card", "status", "prev"):
                    if rank_key in raw:
                        assert t(lang, f"whispers.card.{raw[rank_key]}") in text or key == "whispers.reveal.none" \
                            or rank_key == "status" and key in ("whispers.reveal.unchanged", "whispers.reveal.defeated"), \
                            (lang, key, text)

    table = _fake_table(names)

    def render(lang: str, key: str, raw: dict[str, Any], where: Any = table) -> str:
        return strip_marks(t(lang, key, **json.loads(json.dumps(present_params(where, raw)))))

    face_up = {"cards": [[1, 3], [2, 5], [0, 1]]}
    assert render("ru", "whispers.face_up", face_up) == (
        "Открытые карты: Boris — Обвиняемый, Бот-Евсей — Сбежавший, Анна — Игнорируемый.")
    assert render("en", "whispers.face_up", face_up) == (
        "Face-up cards: Boris: Accused, Бот-Евсей: Fled, Анна: Ignored.")
    assert render("uk", "whispers.face_up", face_up) == (
        "Відкриті карти: Boris — Обвинувачений, Бот-Евсей — Втікач, Анна — Ігнорований.")
    assert render("ru", "whispers.hand", {"cards": [2, 5]}) == "Мастер шепчет: ваши карты — Скрывшийся, Сбежавший."
    assert render("en", "whispers.hand", {"cards": [2, 5]}) == "The Master whispers: your cards are Hidden, Fled."
    assert render("uk", "whispers.hand", {"cards": [2, 5]}) == "Майстер шепоче: ваші карти — Прихований, Втікач."
    assert render("ru", "whispers.you_placed", {"card": 4, "target_seat": 3}) == (
        "Мастер шепчет: вы положили «Незащищенный» перед игроком Дуня.")
    assert render("ru", "whispers.side", {"side": "district"}) == "Мастер шепчет: ваша роль — Гражданин Дистриктов."
    assert render("en", "whispers.side", {"side": "capitol"}) == "The Master whispers: you are a Capitol Citizen."
    assert render("uk", "whispers.side", {"side": "capitol"}) == "Майстер шепоче: ваша роль — Громадянин Капітолію."
    assert render("ru", "whispers.team", {"seats": [0, 3]}) == (
        "Мастер шепчет: Граждане Дистриктов открывают глаза. Ваша команда: Анна, Дуня.")
    reveal = {"seat": 1, "cards": [1, 5], "status": 5, "prev": 4, "side": "capitol"}
    assert render("ru", "whispers.reveal.defeated", reveal) == (
        "Boris раскрывает: Игнорируемый, Сбежавший. «Сбежавший» при статусе «Незащищенный» — игрок Boris "
        "побеждён! Карта персонажа открыта: Гражданин Капитолия.")
    assert render("en", "whispers.reveal.defeated", reveal).endswith("turned face up: Capitol Citizen.")
    win = {"side": "district", "seats": [0, 3], "reason": "capitol_defeated", "capitol_defeated": 3,
           "district_defeated": 1}
    assert render("ru", "whispers.winner", win) == (
        "Граждане Дистриктов побеждают! Победители: Анна, Дуня. Побеждено Граждан Капитолия: 3, "
        "Граждан Дистриктов: 1 — разница не меньше двух.")
    assert render("en", "whispers.winner", win).startswith("The District Citizens win! Winners: Анна, Дуня.")
    coop = _fake_table(names, coop=True)
    lost = {"side": "capitol", "seats": [2, 3, 4], "reason": "all_district_revealed"}
    assert render("ru", "whispers.winner", lost, coop).startswith("Миротворцы побеждают! Победители: Бот-Евсей")
    assert render("en", "whispers.winner", lost, coop).startswith("The Peacekeepers win!")
    assert render("uk", "whispers.winner", lost, coop).startswith("Миротворці перемагають!")
    assert render("ru", "whispers.winner", lost).startswith("Граждане Капитолия побеждают!")
    assert render("ru", "whispers.reveal.defeated", reveal, coop).endswith("открыта: Миротворец.")
    # Plural forms: 1 карта, 2 карты, 5 карт; citizens and Peacekeepers by count.
    for lang, forms in (("ru", ("1 карта", "2 карты", "5 карт", "21 карта")),
                        ("uk", ("1 карта", "2 карти", "5 карт", "21 карта")),
                        ("en", ("1 card", "2 cards", "5 cards", "21 cards"))):
        for n, form in zip((1, 2, 5, 21), forms):
            text = strip_marks(t(lang, "whispers.view.header", number=1, round=1, dealer="A", deck=n,
                                 discard=0, district=2, capitol=3))
            assert f"{form}," in text, (lang, n, text)
    assert "из них 2 Гражданина Дистриктов и 3 Гражданина Капитолия" in render(
        "ru", "whispers.start", {"players": 5, "district": 2, "capitol": 3})
    assert "5 Граждан Дистриктов и 7 Граждан Капитолия" in render(
        "ru", "whispers.start", {"players": 12, "district": 5, "capitol": 7})
    assert "2 District Citizens and 3 Capitol Citizens" in render(
        "en", "whispers.start", {"players": 5, "district": 2, "capitol": 3})
    assert "3 Миротворца" in render("ru", "whispers.start_coop", {"players": 5, "peacekeepers": 3})
    assert "3 Миротворці" in render("uk", "whispers.start_coop", {"players": 5, "peacekeepers": 3})
    assert "3 Peacekeepers" in render("en", "whispers.start_coop", {"players": 5, "peacekeepers": 3})
    assert "1 карта, лежавшая" in render("ru", "whispers.returned", {"seat": 0, "n": 1})
    assert "2 карты, лежавшие" in render("ru", "whispers.returned", {"seat": 0, "n": 2})
    # Rule 3 (revision 2): the others still holding a card are told they place it on that player.
    assert render("ru", "whispers.returned_open", {"seat": 0, "n": 2}) == (
        "Анна: положить карту некому — она возвращается, как и 2 карты, лежавшие перед игроком. Кто ещё "
        "держит карту, кладёт её перед игроком Анна, и она засчитывается.")
    assert render("en", "whispers.returned_open", {"seat": 0, "n": 1}).endswith(
        "and so does the 1 card in front of them. Whoever still holds a card now puts it in front of Анна, "
        "and it counts.")
    assert "5 карт, що лежали перед гравцем" in render("uk", "whispers.returned_open", {"seat": 0, "n": 5})
    assert (t("en", "game.whispers"), t("ru", "game.whispers"), t("uk", "game.whispers")) == (
        "Jabberjay", "Шептуны", "Шептуни")


def test_rules_and_names():
    from world.i18n import strip_marks, t

    ru = strip_marks(t("ru", "rules.whispers"))
    en = strip_marks(t("en", "rules.whispers"))
    for word in ("Игнорируемый", "Скрывшийся", "Обвиняемый", "Незащищенный", "Сбежавший",
                 "Вершителя Правосудия", "Миротворцы", "хотя бы на 2 больше", "положить КАРТА на ИМЯ"):
        assert word in ru, word
    for word in ("Ignored", "Hidden", "Accused", "Exposed", "Fled", "Justice Building", "Peacekeeper",
                 "at least 2 more", "place CARD on NAME"):
        assert word in en, word
    assert "Втікач" in t("uk", "rules.whispers")


def _all_texts(messages: list[Any], lang: str) -> list[str]:
    return [_render(lang, m) for m in messages]


def test_view_and_status_render_for_every_viewer():
    """`look` and the status line, for each seat and a spectator, in each language: no template
    left over, the viewer's hand and side and nobody else's."""
    from games.base import SPECTATOR
    from games.whispers import GAME as ENGINE
    from world.presenters import whispers as presenter

    for coop, players, options in ((False, 6, {}), (True, 5, {"peacekeepers_from": 2})):
        names = NAMES[:players]
        rng = random.Random(players)
        state = ENGINE.new(players, options, 11)
        table = _fake_table(names, coop)
        for step in range(120):
            if ENGINE.outcome(state) is not None:
                break
            awaited = {a.seat for a in ENGINE.awaiting(state)}
            if step % 7 == 0 or ENGINE.view(state, 0)["stage"] in ("pass", "swap"):
                for viewer in [*range(players), SPECTATOR]:
                    view = ENGINE.view(state, viewer)
                    seat = None if viewer == SPECTATOR else viewer
                    lines = presenter.describe(table, view, seat, 42, awaited)
                    lines += presenter.status(table, view, seat, 42, awaited)
                    for lang in LANGS:
                        texts = _all_texts(lines, lang)
                        for text in texts:
                            assert "{" not in text and "$msg" not in text and not LEFTOVER_KEY.search(text), text
                    ru = "\n".join(_all_texts(lines, "ru"))
                    if seat is None:
                        assert "Ваши карты" not in ru and "Ваша роль" not in ru
                    else:
                        assert "Ваша роль: " in ru
                        if view["hand"]:
                            assert "Ваши карты: " in ru
                        if seat in awaited:
                            assert "Ваш ход" in ru
                        if view.get("team") and len(view["team"]) > 1:
                            assert "Ваша команда: " in ru
                        if coop and view["side"] == "district":
                            assert "Ваша команда: " in ru
            (wait,) = ENGINE.awaiting(state)
            legal = ENGINE.legal(state, wait.seat)
            ENGINE.apply(state, wait.seat, ENGINE.bot_action(ENGINE.view(state, wait.seat), legal, rng, "normal"))
        view = ENGINE.view(state, 0)
        text = "\n".join(_all_texts(presenter.describe(table, view, 0, None, set()), "en"))
        assert "Table 3: Jabberjay" in text and ("the cooperative game" in text) == coop


# -- over the wire -------------------------------------------------------------------------------

WINNER = re.compile(r"Граждане Дистриктов побеждают|Граждане Капитолия побеждают|Миротворцы побеждают"
                    r"|Игра окончена без победителя")


# The rule errors a typed command may meet when the verb built the wrong action.
MISFIRES = ("not_your_turn", "no_such_card", "self_target", "target_full", "target_defeated",
            "target_returned", "bad_target", "bad_action")


def parse_error_signatures() -> list[str]:
    """Fixed text of the messages that mean "that command was not understood"."""
    return error_signatures(lambda cat: [k for k in cat if k.startswith("whispers.cmd.")]
                            + [f"whispers.error.{k}" for k in MISFIRES])


def assert_understood(text: str, who: str) -> None:
    wire.assert_understood(text, who, parse_error_signatures())


class Player(WirePlayer):
    """A person at the «Шептуны» table (tests/wire.py): passes more often than not, else anything legal."""

    winner_key = "whispers.winner"

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        passes = [a for a in legal if a["type"] == "pass"]
        if passes and self.rng.random() < 0.6:
            return self.rng.choice(passes)
        return self.rng.choice(legal)

    def check(self, view: dict[str, Any], awaiting: dict[str, Any]) -> None:
        assert view["turn"] == awaiting["seat"] == view["me"], (view, awaiting)

    def answer(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        action = self.choose(legal)
        return action, command_for(action, self.lang, self.names(), legal, view.get("hand") or [], self.rng)


async def start_coop(anna: Any, boris: Any, command: str) -> int:
    """Анна (Russian) opens a cooperative table with ``command``, Boris (English) joins, Анна
    starts: both read the cooperative start. Returns the table's number."""
    number = await open_table(anna, command)
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("начать")
    await anna.expect("Начинаются «Шептуны», совместная игра", timeout=10)
    await boris.expect("Jabberjay begins, the cooperative game", timeout=10)
    return number


async def seated_names(person: Player, number: int, seats: int) -> list[str]:
    """The names at table ``number`` once its ``seats`` are taken (the Peacekeepers are announced
    with the table once the game begins), as this person's GMCP tells them."""
    await person.eyes.gmcp("Korchma.Game.View", timeout=10)

    def seated() -> int:
        _, info = person.latest("Korchma.Table")
        return max((len(t["seats"]) for t in info["tables"] if t["number"] == number), default=0)

    await person.eyes.wait_for(lambda: seated() >= seats, timeout=10)
    return person.names()


async def play_to_the_end(people: list[Player], seconds: float) -> None:
    """The people play until the game ends (within ``seconds``); each was asked at least once,
    read the end and never got a line the server did not understand."""
    until = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*(p.play(until) for p in people))
    for person in people:
        await person.typer.expect(FINISHED, timeout=15)
        assert person.awaitings > 0
        assert_understood(person.typer.text, person.name)


def assert_private(player: Player, seat: int) -> None:
    """Every view this player's session got is their own seat's, with no one else's hand or
    side; whispers name only them."""
    views = [data for name, data in player.eyes.gmcp_messages if name == "Korchma.Game.View"]
    assert views
    for data in views:
        assert data["seat"] == seat and data["view"]["me"] == seat
        assert "hands" not in data["view"] and "sides" not in data["view"]
        assert "placed_cards" not in data["view"] and "markers" not in data["view"]
    whispers = [data for name, data in player.eyes.gmcp_messages
                if name == "Korchma.Game.Event" and data["whisper"]]
    sides = [d for d in whispers if d["key"] == "whispers.side"]
    assert len(sides) == 1 and sides[0]["params"]["side"] == views[-1]["view"]["side"]
    teams = [d for d in whispers if d["key"] == "whispers.team"]
    if views[-1]["view"]["side"] == "district":
        assert len(teams) == 1 and seat in teams[0]["params"]["seats"]
        assert sorted(teams[0]["params"]["seats"]) == sorted(views[-1]["view"]["team"])
    else:
        assert not teams
    for data in whispers:
        if data["key"] == "whispers.passed_to_you":
            assert data["params"]["seat"] != seat


async def test_whole_game_telnet_ssh_and_bots(server):
    """Anna (telnet, Russian) and Boris (SSH, English) play with three bots to the end; a guest
    (Ukrainian) watches and hears no whisper."""
    anna, boris, boris_eyes, guest = await company(server, wide=True)

    await sit_down_and_start(anna, boris, guest, "открыть шептуны turn=10 seats=5 rounds=40", 3)
    await anna.expect("Начинаются «Шептуны»", timeout=10)
    await boris.expect("Jabberjay begins", timeout=10)
    await guest.expect("Починаються «Шептуни»", timeout=10)
    await anna.expect("Мастер шепчет: ваша роль — Граждан", timeout=10)
    await boris.expect("The Master whispers: you are a ", timeout=10)

    anna.send_line("карты")
    await anna.expect(re.compile(r"Стол \d+: «Шептуны», раунд \d+\. Правосудие у игрока \S+\. Колода: \d+ карт"))
    await anna.expect(re.compile(r"Ваша роль: Граждан(ин Дистриктов|ин Капитолия)\."))

    until = asyncio.get_running_loop().time() + 160
    players = [Player("Анна", "ru", anna, anna, 1), Player("Boris", "en", boris, boris_eyes, 2)]
    await anna.gmcp("Korchma.Game.View", timeout=10)
    names = players[0].names()
    assert len(names) == 5 and names[:2] == ["Анна", "Boris"], names
    await asyncio.gather(*(p.play(until) for p in players))
    await anna.expect(FINISHED, timeout=15)
    await boris.expect(FINISHED, timeout=15)
    await guest.expect(FINISHED, timeout=15)
    assert all(p.awaitings > 0 for p in players)

    assert_understood(anna.text, "Анна")
    assert_understood(boris.text, "Boris")
    # Each reads the game in their own language, card names included.
    assert re.search(r"Открытые карты: \S+ — (Игнорируемый|Скрывшийся|Обвиняемый|Незащищенный|Сбежавший)",
                     anna.text)
    assert re.search(r"Мастер шепчет: ваши карты — (Игнорируемый|Скрывшийся|Обвиняемый|Незащищенный|Сбежавший)",
                     anna.text)
    assert re.search(r"Мастер шепчет: вы положили «\w+» перед игроком", anna.text)
    assert re.search(r"The Master whispers: your cards are (Ignored|Hidden|Accused|Exposed|Fled)", boris.text)
    assert re.search(r"Round \d+\. \S+ holds the Justice Building card", boris.text)
    assert re.search(r"\S+ puts a card in front of \S+\.", boris.text)
    assert re.search(r"Відкриті карти: \S+ — (Ігнорований|Прихований|Обвинувачений|Незахищений|Втікач)", guest.text)
    assert re.search(r"Граждане Дистриктов побеждают|Граждане Капитолия побеждают|Игра окончена без победителя",
                     anna.text)
    assert re.search(r"The District Citizens win|The Capitol Citizens win|The game ends with no winner", boris.text)
    # The table as it changes: everyone's status in the status line.
    assert re.search(r"\[раунд \d+, Правосудие: \S+\] Анна: (Игнорируемый|Скрывшийся|Обвиняемый|Незащищенный"
                     r"|Сбежавший|побеждён)", anna.text)
    assert re.search(r"\[round \d+, Justice: \S+\] Анна: (Ignored|Hidden|Accused|Exposed|Fled|defeated)", boris.text)
    # Nobody sees another's hand or side: a watcher gets no whisper and no private view.
    assert "шепоче" not in guest.text and "шепчет" not in guest.text and "whispers:" not in guest.text
    assert "Ваші карти" not in guest.text and "Ваша роль" not in guest.text
    for name, data in guest.gmcp_messages:
        assert not (name == "Korchma.Game.Event" and data["whisper"])
        if name == "Korchma.Game.View":
            assert data["seat"] is None
            assert not {"hand", "side", "team", "hands", "sides", "my_placements"} & set(data["view"])
    assert_private(players[0], names.index("Анна"))
    assert_private(players[1], names.index("Boris"))
    assert len(re.findall("Мастер шепчет: ваша роль", anna.text)) == 1
    assert len(re.findall("The Master whispers: you are a", boris_eyes.text)) == 1
    anna.send_line("правила шептуны")
    await anna.expect("Голодные игры: Шептуны")
    for client in (anna, boris_eyes, guest):
        await client.close()
    await boris.close()


async def test_two_people_against_the_peacekeepers(server):
    """Two people (Russian and English) open a table; at the start the server seats the
    Peacekeeper bots; both are District and see each other as their team; played to the end."""
    anna = await log_in(server.telnet_port, "Анна", gmcp=True, naws=(250, 50))
    boris = await log_in(server.telnet_port, "Boris", gmcp=True, naws=(250, 50))
    boris.send_line("lang en")
    await boris.expect("Language: English")
    number = await start_coop(anna, boris, "открыть шептуны turn=10 rounds=40")
    await anna.expect("Мастер шепчет: ваша роль — Гражданин Дистриктов.", timeout=10)
    await boris.expect("The Master whispers: you are a District Citizen.", timeout=10)
    await anna.expect("Ваша команда: Анна, Boris.", timeout=10)
    await boris.expect("Your team: Анна, Boris.", timeout=10)

    people = [Player("Анна", "ru", anna, anna, 5), Player("Boris", "en", boris, boris, 6)]
    names = await seated_names(people[0], number, 5)
    assert len(names) >= 5 and names[:2] == ["Анна", "Boris"], names
    anna.send_line("смотреть")
    await anna.expect(re.compile(r"«Шептуны», совместная игра, раунд \d+"))
    await anna.expect(re.compile(r"Граждан Дистриктов: 2, Миротворцев: \d"))

    await play_to_the_end(people, 160)
    assert re.search(r"Миротворцы побеждают|Граждане Дистриктов побеждают|Игра окончена без победителя", anna.text)
    assert re.search(r"The Peacekeepers win|The District Citizens win|The game ends with no winner", boris.text)
    assert_private(people[0], 0)
    assert_private(people[1], 1)
    await anna.close()
    await boris.close()
