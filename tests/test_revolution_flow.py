"""«Революция» at a real table, over telnet and SSH, in Russian, English and Ukrainian.

Offline tests at the top check the pieces without a server: the verbs against every legal action
shape of many random positions of seeded games (each text a player would type, in each language
and many forms, parses to exactly that action), clear errors for words that name no card or no
player, every event key rendered in ru/en/uk from parameters that went through a JSON round trip
(the inbox), card names from the deck in the reader's language, plurals, and the table view and
status line for every seat and a spectator.

Then over the wire: a whole game of two people and two bots to level 10 (Anna on telnet in
Russian, Boris on SSH in English; a second telnet session of Boris's account reads GMCP for him;
a Ukrainian guest watches and sees no hand). The people are driven as a MUD client script would
drive them: read GMCP ``Korchma.Game.Awaiting`` (the exact legal actions), answer each wait once
(a wait is named by (seat, since)), and type the matching text command in the player's language.
"""
from __future__ import annotations

import asyncio
import functools
import json
import random
import re
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from tests.offline import OfflineTable, game_commands, typed
from tests.telnet_client import log_in
from tests.wire import (FINISHED, WirePlayer, company, error_signatures, open_table, signatures,
                       sit_down_and_start)

LANGS = ("en", "ru", "uk")
LEFTOVER_KEY = re.compile(r"revolution\.[a-z]")  # a message key shown instead of its text
NAMES = ["Анна", "Boris", "Бот-Афанасий", "Ева", "Дуня", "Zoe"]

VERBS = {
    "en": {"draw": ["draw"], "fight": ["fight"], "pass": ["pass", "flee", "done", "ready"], "end": ["end"],
           "discard": ["drop", "discard"], "sell": ["sell"], "equip": ["equip", "wear"], "place": ["enlist", "place"],
           "play": ["play", "use"], "hinder": ["hinder"], "speech": ["speech"], "offer": ["offer"],
           "accept": ["accept"], "revolt": ["revolt"], "counter": ["counter"], "arrest": ["arrest"],
           "roll": ["roll"], "buyout": ["buyout"], "trade": ["trade", "swap"], "decline": ["decline", "reject"],
           "withdraw": ["withdraw", "trade off", "trade cancel"]},
    "ru": {"draw": ["тянуть", "тяну"], "fight": ["бой", "драться"], "pass": ["пас", "бежать", "готов"],
           "end": ["конец", "закончить"], "discard": ["сбросить", "скинуть"], "sell": ["продать"],
           "equip": ["надеть"], "place": ["вступить", "стать"], "play": ["сыграть", "применить"],
           "hinder": ["помешать"], "speech": ["речь"], "offer": ["предложить"], "accept": ["принять"],
           "revolt": ["революция"], "counter": ["контра", "контрреволюция"], "arrest": ["арест"],
           "roll": ["бросить", "кубик"], "buyout": ["откуп", "выкуп"], "trade": ["обмен", "обменять"],
           "decline": ["отклонить"], "withdraw": ["отозвать", "обмен отмена"]},
    "uk": {"draw": ["тягнути"], "fight": ["бій"], "pass": ["пас", "тікати"], "end": ["кінець"],
           "discard": ["скинути"], "sell": ["продати"], "equip": ["вдягнути"], "place": ["вступити"],
           "play": ["зіграти"], "hinder": ["завадити"], "speech": ["промова"], "offer": ["запропонувати"],
           "accept": ["прийняти"], "revolt": ["революція"], "counter": ["контра"], "arrest": ["арешт"],
           "roll": ["кинути"], "buyout": ["викуп"], "trade": ["обмін", "обміняти"], "decline": ["відхилити"],
           "withdraw": ["забрати", "обмін скасувати"]},
}
SIDE_WORDS = {"en": {"players": ["for"], "opponent": ["against"]},
              "ru": {"players": ["за", "игрокам"], "opponent": ["против", "противнику"]},
              "uk": {"players": ["за"], "opponent": ["проти"]}}
EQUIPMENT = ("headgear", "footwear", "clothing", "weapon")
GIVE_WORDS = {"en": ["give ", ""], "ru": ["даю ", "отдаю ", ""], "uk": ["даю ", "віддаю ", ""]}
FOR_WORDS = {"en": ["for"], "ru": ["за", "на"], "uk": ["за"]}


def deck():
    from games.revolution import GAME

    return GAME.deck_of("default")


@functools.lru_cache(maxsize=None)
def fold(text: str) -> str:
    text = text.casefold().replace("ё", "е")
    return " ".join("".join(ch if ch.isalnum() else " " for ch in text).split())


@functools.lru_cache(maxsize=None)
def names_of(cid: str) -> tuple[str, ...]:
    card = deck().cards[cid]
    return (fold(cid), *(fold(n) for n in card.name.values()))


def starts(phrase: str, name: str) -> bool:
    words = name.split()
    return any(" ".join(words[i:]).startswith(phrase) for i in range(len(words)))


def unique_start(cid: str, pool: list[str], lang: str) -> str | None:
    """The shortest start of the card's name (4 letters at least) that names no other card of
    ``pool`` (neither as a start of its name or of one of its words, nor exactly)."""
    return _unique_start(cid, tuple(dict.fromkeys(pool)), lang)


@functools.lru_cache(maxsize=65536)
def _unique_start(cid: str, pool: tuple[str, ...], lang: str) -> str | None:
    name = fold(deck().cards[cid].name["en" if lang == "en" else "ru"])
    others = [c for c in dict.fromkeys(pool) if c != cid]
    for size in range(4, len(name) + 1):
        prefix = name[:size].strip()
        if prefix != name[:size] or not prefix:
            continue
        # The verbs drop a leading "the" (a connector), so what follows it must name the card
        # alone too: "the b" is "b", which also starts "Bolsheviks".
        bare = prefix[4:] if prefix.startswith("the ") else prefix
        if len(bare) < 4:
            continue
        if any(p in names_of(o) or any(starts(p, n) for n in names_of(o)) for o in others for p in {prefix, bare}):
            continue
        if any(p == n for o in others for n in names_of(o) for p in {prefix, bare}):
            continue
        return prefix
    return None


def card_word(cid: str, pool: list[str], listed: list[str], lang: str, rng: random.Random,
              number_ok: bool = True, taken: set[int] | None = None) -> str:
    """A word (or words) a player may type for a card: its number in the list, its name in the
    player's language (or the other one), or a unique start of the name."""
    card = deck().cards[cid]
    forms = [card.name["en" if lang == "en" else "ru"], card.name["ru" if lang == "en" else "en"],
             card.name["ru"].lower()]
    others = [c for c in dict.fromkeys(pool) if c != cid]
    forms = [f for f in forms if not any(fold(f) == n for o in others for n in names_of(o))]
    prefix = unique_start(cid, pool, lang)
    if prefix:
        forms.append(prefix)
    if number_ok and cid in listed:
        free = [i for i, c in enumerate(listed) if c == cid and (taken is None or i not in taken)]
        if free:
            index = rng.choice(free)
            if rng.random() < 0.4 or not forms:
                if taken is not None:
                    taken.add(index)
                return rng.choice([str(index + 1), f"#{index + 1}"])
    return rng.choice(forms)


def who(seat: int, names: list[str], rng: random.Random, lang: str) -> str:
    name = names[seat]
    forms = [name, name.lower()]
    others = [n for n in names if n != name]
    for size in range(3, len(name) + 1):
        if not any(o.casefold().startswith(name[:size].casefold()) for o in others):
            forms.append(name[:size])
            break
    return rng.choice(forms)


def command_for(action: dict[str, Any], lang: str, names: list[str], view: dict[str, Any],
                legal: list[dict[str, Any]], rng: random.Random, steady: bool = False) -> tuple[str, dict[str, Any]]:
    """The text a player types for ``action`` and the action it must parse to (the same, except
    that a speech read in English carries the English text). ``steady``: no short form whose
    meaning depends on what others may change meanwhile (the only offer, the only counter card)."""
    kind = action["type"]
    verbs = VERBS[lang]
    hand = list(view.get("hand") or [])
    me = view.get("me")
    gear = list((view.get("gear") or [])[me]) if me is not None else []
    d = deck()
    # While one's trade offer is open, its acceptance may reorder the hand at any moment: a
    # steady player names cards instead of numbering them.
    cw = functools.partial(card_word, number_ok=False) if steady and view.get("my_trade") else card_word

    def verb(key: str) -> str:
        return rng.choice(verbs[key])

    def side_word(side: str) -> str:
        return rng.choice(SIDE_WORDS[lang][side])

    if kind in ("draw", "draw_hidden"):
        return verb("draw"), action
    if kind == "roll":
        return verb("roll"), action
    if kind == "pass":
        return verb("pass"), action
    if kind == "end":
        if not any(a["type"] == "pass" for a in legal) and rng.random() < 0.3:
            return verb("pass"), action
        return verb("end"), action
    if kind == "fight":
        pool = [a["card"] for a in legal if a["type"] == "fight"]
        if rng.random() < 0.3:
            return f"{verb('play')} {cw(action['card'], hand, hand, lang, rng)}", action
        return f"{verb('fight')} {cw(action['card'], pool, hand, lang, rng)}", action
    if kind == "discard":
        return f"{verb('discard')} {cw(action['card'], hand, hand, lang, rng)}", action
    if kind == "equip":
        pool = [c for c in hand if d.cards[c].category in EQUIPMENT]
        if rng.random() < 0.3:
            return f"{verb('play')} {cw(action['card'], hand, hand, lang, rng)}", action
        return f"{verb('equip')} {cw(action['card'], pool, hand, lang, rng)}", action
    if kind == "place":
        pool = [c for c in hand if d.cards[c].category in ("class", "party")]
        if rng.random() < 0.3:
            return f"{verb('play')} {cw(action['card'], hand, hand, lang, rng)}", action
        return f"{verb('place')} {cw(action['card'], pool, hand, lang, rng)}", action
    if kind in ("sell", "buyout"):
        listed = hand + gear
        pool = [c for c in listed if d.cards[c].price is not None]
        taken: set[int] = set()
        if kind == "buyout" and rng.random() < 0.3 and not steady:
            return verb("buyout"), action  # no cards named: the suggested set, as legal lists it
        words = [cw(c, pool, listed, lang, rng, taken=taken) for c in action["cards"]]
        if len(words) > 1 and rng.random() < 0.3:
            words = [f"«{w}»" if not w.lstrip("#").isdigit() else w for w in words]
        return f"{verb(kind)} {' '.join(words)}", action
    if kind == "arrest":
        target = who(action["target"], names, rng, lang)
        card = cw(action["card"], hand, hand, lang, rng)
        if rng.random() < 0.5:
            return f"{verb('arrest')} {target} {card} {action['number']}", action
        return f"{verb('arrest')} {card} {target} {action['number']}", action
    if kind == "offer":
        fighter = (view.get("fight") or {}).get("fighter")
        if fighter is not None and rng.random() < 0.4:
            return f"{verb('offer')} {who(fighter, names, rng, lang)} {action['share']}", action
        return f"{verb('offer')} {action['share']}", action
    if kind == "accept":
        offers = [a for a in legal if a["type"] == "accept"]
        if len(offers) == 1 and rng.random() < 0.4 and not steady:
            return verb("accept"), action
        return f"{verb('accept')} {who(action['seat'], names, rng, lang)}", action
    if kind == "trade":
        listed = hand + gear
        pool = [c for c in listed if d.cards[c].price is not None]
        taken: set[int] = set()
        give = " ".join(cw(c, pool, listed, lang, rng, taken=taken) for c in action["give"])
        text = f"{verb('trade')} {who(action['target'], names, rng, lang)} {rng.choice(GIVE_WORDS[lang])}{give}"
        if action["take"]:
            theirs = list(view["gear"][action["target"]])
            worn = [c for c in theirs if d.cards[c].price is not None]
            take = " ".join(cw(c, worn, theirs, lang, rng, number_ok=False) for c in action["take"])
            text += f" {rng.choice(FOR_WORDS[lang])} {take}"
        return text, action
    if kind in ("trade_accept", "trade_decline"):
        key = "accept" if kind == "trade_accept" else "decline"
        offers = view.get("trades_to_me") or []
        if len(offers) == 1 and rng.random() < 0.4 and not steady:
            return verb(key), action
        return f"{verb(key)} {who(action['seat'], names, rng, lang)}", action
    if kind == "trade_withdraw":
        return verb("withdraw"), action
    if kind == "speech":
        card = d.cards[action["card"]]
        text = card.speech["en"] if lang == "en" else action["text"]
        expected = {**action, "text": text}
        sides = [a["side"] for a in legal if a["type"] == "speech" and a["card"] == action["card"]]
        default = "players" if "players" in sides else sides[0]
        side = "" if action["side"] == default and rng.random() < 0.5 else side_word(action["side"]) + " "
        speeches = [c for c in hand if d.cards[c].category == "speech"]
        pick = rng.random()
        if action["side"] == "opponent" and pick < 0.2:
            return f"{verb('hinder')} {cw(action['card'], hand, hand, lang, rng)} {text}", expected
        if pick < 0.45:
            return f"{verb('speech')} {side}{text}", expected
        if pick < 0.7:
            return f"{verb('play')} {cw(action['card'], hand, hand, lang, rng)} {side}{text}", expected
        return f"{verb('speech')} {cw(action['card'], speeches, hand, lang, rng)} {side}{text}", expected
    if kind == "play":
        card = d.cards[action["card"]]
        word = cw(action["card"], hand, hand, lang, rng)
        if card.effect("counter"):
            counters = [a["card"] for a in legal if a["type"] == "play" and d.cards[a["card"]].effect("counter")]
            if len(set(counters)) == 1 and rng.random() < 0.5 and not steady:
                return verb("counter"), action
            if rng.random() < 0.5:
                return f"{verb('counter')} {cw(action['card'], counters, hand, lang, rng)}", action
            return f"{verb('play')} {word}", action
        if card.effect("revolution"):
            revs = [c for c in hand if d.cards[c].category == "revolution"]
            if len(set(revs)) == 1 and rng.random() < 0.3:
                return verb("revolt"), action
            if rng.random() < 0.5:
                return f"{verb('revolt')} {cw(action['card'], revs, hand, lang, rng)}", action
            return f"{verb('play')} {word}", action
        if "target" in action:
            target = who(action["target"], names, rng, lang)
            their = list(view["gear"][action["target"]])
            item = cw(action["item"], their, their, lang, rng, number_ok=False)
            worn = [c for s, g in enumerate(view["gear"]) if s != me for c in g]
            owners = [s for s, g in enumerate(view["gear"]) if s != me and action["item"] in g]
            pick = rng.random()
            if pick < 0.5:
                return f"{verb('play')} {word} {target} {item}", action
            item_any = cw(action["item"], worn, [], lang, rng, number_ok=False)
            if len(owners) == 1 and pick < 0.7:
                return f"{verb('play')} {word} {item_any}", action
            return f"{verb('play')} {word} {item_any} {target}", action
        bonus = card.effect("fight_bonus")
        if bonus is not None:
            if bonus["side"] == "any":
                hinder_side = "opponent" if bonus["n"] > 0 else "players"
                if action["side"] == hinder_side and rng.random() < 0.3:
                    return f"{verb('hinder')} {word}", action
                sides = [a["side"] for a in legal if a["type"] == "play" and a["card"] == action["card"]]
                default = "players" if "players" in sides else sides[0]
                if action["side"] == default and rng.random() < 0.5:
                    return f"{verb('play')} {word}", action
                return f"{verb('play')} {word} {side_word(action['side'])}", action
            hinders = (bonus["n"] > 0) == (bonus["side"] == "opponent")
            if hinders and rng.random() < 0.3:
                return f"{verb('hinder')} {word}", action
        return f"{verb('play')} {word}", action
    raise AssertionError(f"no verb for {action}")


# -- offline: verbs against every legal action ----------------------------------------------------

@pytest.fixture
def sent(monkeypatch) -> list[dict[str, Any]]:
    import commands.games.revolution as verbs

    out: list[dict[str, Any]] = []

    async def capture(ctx: Any, action: dict[str, Any]) -> None:
        out.append(action)

    monkeypatch.setattr(verbs, "game_action", capture)
    return out


ALL_SHAPES = {"draw", "draw_hidden", "fight", "end", "discard", "sell", "arrest", "roll", "buyout", "equip",
              "place", "play", "play_side", "play_steal", "play_counter", "play_revolution", "speech", "offer",
              "accept", "pass", "trade", "trade_accept", "trade_decline", "trade_withdraw"}


def _shape(action: dict[str, Any]) -> str:
    if action["type"] != "play":
        return action["type"]
    card = deck().cards[action["card"]]
    if "side" in action:
        return "play_side"
    if "target" in action:
        return "play_steal"
    if card.effect("counter"):
        return "play_counter"
    if card.effect("revolution"):
        return "play_revolution"
    return "play"


async def test_every_legal_action_has_a_verb(sent):
    """Random positions of many seeded games (2 to 6 seats): for every seat and (a sample of)
    every legal action, the text a player would type (the languages in turn, many forms) parses to
    exactly that action. Every action shape of the contract is met."""
    from games.revolution import GAME as ENGINE

    checked: dict[str, int] = {}
    turn = 0
    for game_no in range(24):
        rng = random.Random(game_no)
        players = [2, 3, 4, 5, 6][game_no % 5]
        names = NAMES[:players]
        state = ENGINE.new(players, {}, 1000 + game_no)
        table = OfflineTable("revolution", state, names, {"deck": "default"})
        for step in range(700):
            if ENGINE.outcome(state) is not None:
                break
            if step % 2 == 0:
                for seat in range(players):
                    legal = ENGINE.legal(state, seat)
                    view = ENGINE.view(state, seat)
                    by_shape: dict[str, list[dict[str, Any]]] = {}
                    for action in legal:
                        by_shape.setdefault(_shape(action), []).append(action)
                    for shape, actions in by_shape.items():
                        # trades are offered from every seat at most steps: one sample, one language
                        many = 1 if shape == "trade" else 2
                        for action in rng.sample(actions, min(many, len(actions))):
                            # one language per action, in turn: each is typed thousands of times
                            turn += 1
                            for lang in (LANGS[turn % len(LANGS)],):
                                text, expected = command_for(action, lang, names, view, legal, rng)
                                sent.clear()
                                await typed(table, seat, text)
                                assert sent == [expected], (text, action, sent, view.get("hand"))
                                checked[shape] = checked.get(shape, 0) + 1
            wait = rng.choice(ENGINE.awaiting(state))
            legal = ENGINE.legal(state, wait.seat)
            if rng.random() < 0.25:
                action = rng.choice(legal)
            else:
                action = ENGINE.bot_action(ENGINE.view(state, wait.seat), legal, rng, "normal")
            ENGINE.apply(state, wait.seat, action)
    assert ALL_SHAPES <= set(checked), (ALL_SHAPES - set(checked), checked)


def _render(lang: str, message: Any) -> str:
    from world.i18n import strip_marks, t

    return strip_marks(t(lang, message.key, **message.params))


def _position(want: Any, seed: int = 5, players: int = 4) -> tuple[Any, OfflineTable]:
    """A seeded game played by bots until ``want(state)``."""
    from games.revolution import GAME as ENGINE

    for game_no in range(60):
        rng = random.Random(game_no)
        state = ENGINE.new(players, {}, seed + game_no)
        for _ in range(600):
            if ENGINE.outcome(state) is not None:
                break
            if want(state):
                return state, OfflineTable("revolution", state, NAMES[:players], {"deck": "default"})
            wait = rng.choice(ENGINE.awaiting(state))
            legal = ENGINE.legal(state, wait.seat)
            ENGINE.apply(state, wait.seat, ENGINE.bot_action(ENGINE.view(state, wait.seat), legal, rng, "normal"))
    raise AssertionError("no such position")


async def test_verbs_say_what_is_wrong(sent):
    """Unknown card words and numbers, ambiguous starts, unknown players, usage without
    arguments, a hinder that does not hinder, unequip: each a clear message in every language."""
    from commands.base import CommandError
    from world.i18n import catalog

    state, table = _position(lambda s: s.stage == "choose" and len(s.hands[s.active]) >= 3)
    seat = state.active

    async def error(text: str, who: int = seat) -> Any:
        sent.clear()
        with pytest.raises(CommandError) as err:
            await typed(table, who, text)
        assert not sent, (text, sent)
        message = err.value.message
        assert message.key in catalog("en"), message.key
        for lang in LANGS:
            rendered = _render(lang, message)
            assert "{" not in rendered and "$msg" not in rendered and not LEFTOVER_KEY.search(rendered), rendered
        return message

    assert (await error("drop xyzzy")).key == "revolution.cmd.bad_card"
    assert "xyzzy" in _render("ru", await error("сбросить xyzzy"))
    assert (await error("drop 99")).key == "revolution.cmd.bad_card"
    assert (await error("sell")).key == "revolution.cmd.sell_usage"
    assert (await error("arrest Zed 1 3")).key in ("revolution.cmd.no_player", "revolution.cmd.arrest_usage")
    message = await error("arrest Zed")
    assert message.key == "revolution.cmd.arrest_usage"
    assert _render("ru", message).startswith("арест ИМЯ КАРТА N")
    message = await error("offer 1")
    assert message.key == "revolution.error.no_fight"
    assert _render("ru", message) == "Сейчас нет боя."
    message = await error("unequip")
    assert message.key == "revolution.cmd.no_unequip"
    assert (await error("counter")).key == "revolution.cmd.no_counter_window"
    assert (await error("speech")).key in ("revolution.cmd.no_cards", "revolution.cmd.speech_usage")
    other = (seat + 1) % 4
    assert (await error("draw", other)).key == "revolution.error.not_your_turn"
    assert (await error("roll")).key == "revolution.error.not_jailed"
    # Ambiguous players: two names start with «Бо» when Boris and Бот-Афанасий sit here.
    state2, table2 = _position(lambda s: s.stage == "fight" and s.fight["helper"] is None
                               and s.fight["fighter"] == 0 and not s.jail[3])
    sent.clear()
    await typed(table2, 3, "offer 1")
    assert sent == [{"type": "offer", "share": 1}]
    with pytest.raises(CommandError) as err:
        await typed(table2, 3, "offer Boris 1")
    assert err.value.message.key == "revolution.cmd.not_the_fighter"
    table2.seats[1].name = "Бор"
    table2.seats[2].name = "Бориска"
    with pytest.raises(CommandError) as err:
        await typed(table2, 0, "accept Бо")
    assert err.value.message.key == "revolution.cmd.ambiguous_player"
    assert "Бор, Бориска" in _render("ru", err.value.message)
    with pytest.raises(CommandError) as err:
        await typed(table2, 0, "accept Zed")
    assert err.value.message.key == "revolution.cmd.no_player"
    assert _render("en", err.value.message) == "Nobody called Zed plays at this table."
    assert _render("ru", err.value.message) == "За этим столом нет игрока Zed."
    # A card that helps the players does not hinder.
    from games.revolution import GAME as ENGINE

    state2.hands[3].append("paek")
    with pytest.raises(CommandError) as err:
        await typed(table2, 3, "hinder паёк")
    assert err.value.message.key == "revolution.cmd.not_hinder"
    assert "Паёк" in _render("ru", err.value.message)
    sent.clear()
    await typed(table2, 3, "сыграть паёк")
    assert sent == [{"type": "play", "card": "paek"}]
    state2.hands[3].append("mandat_chk")
    sent.clear()
    await typed(table2, 3, "помешать мандат чк")
    assert sent == [{"type": "play", "card": "mandat_chk", "side": "opponent"}]
    sent.clear()
    await typed(table2, 3, "сыграть «Мандат ЧК» против")
    assert sent == [{"type": "play", "card": "mandat_chk", "side": "opponent"}]
    sent.clear()
    await typed(table2, 3, "play cheka")
    assert sent == [{"type": "play", "card": "mandat_chk", "side": "players"}]
    # A speech by its text alone, by card and text, for the opponent; a Russian stem (агитку).
    state2.hands[3] += ["rech_sovety", "agitka"]
    sent.clear()
    await typed(table2, 3, "речь Вся власть Советам!")
    assert sent == [{"type": "speech", "card": "rech_sovety", "text": "Вся власть Советам!", "side": "players"}]
    sent.clear()
    await typed(table2, 3, "speech soviets against all power to the soviets")
    assert sent == [{"type": "speech", "card": "rech_sovety", "text": "all power to the soviets", "side": "opponent"}]
    sent.clear()
    await typed(table2, 3, "сыграть агитку")
    assert sent == [{"type": "play", "card": "agitka"}]
    assert ENGINE.legal(state2, 3)
    for key in ("game_over", "not_your_turn", "bad_action", "no_such_card", "not_now", "bad_stage",
                "hand_limit", "no_tenth_level", "too_cheap", "no_price", "not_ruling", "already_arrested",
                "bad_target", "target_jailed", "bad_number", "jailed", "not_jailed", "no_helper_slot",
                "already_offered", "no_such_offer", "bad_share", "bad_side", "speech_mismatch", "no_party",
                "no_fight", "not_fighter", "no_item", "bad_option", "bad_deck", "trade_not_now", "trade_open",
                "trade_once", "trade_jailed"):
        for lang in LANGS:
            assert f"revolution.error.{key}" in catalog(lang), (lang, key)


async def test_a_card_named_that_is_gone_or_elsewhere(sent):
    """A card named by a word that a trade, a sale or a theft made stale: not yours any more, or
    yours but worn (not in hand), each said as such, not as an unknown word."""
    from commands.base import CommandError

    state, table = _position(lambda s: s.stage == "choose" and len(s.hands[s.active]) >= 1)
    seat = state.active
    state.hands[seat][:] = ["valenki"]
    state.gear[seat][:] = [c for c in state.gear[seat] if c != "furazhka"]
    with pytest.raises(CommandError) as err:
        await typed(table, seat, "wear peak")
    assert err.value.message.key == "revolution.error.no_such_card"
    assert _render("en", err.value.message) == "You do not have that card: Peaked cap."
    state.gear[seat].append("furazhka")
    with pytest.raises(CommandError) as err:
        await typed(table, seat, "надеть фураж")
    assert err.value.message.key == "revolution.cmd.not_that_card"
    assert _render("ru", err.value.message) == "«Фуражка» здесь не подойдёт. Можно выбрать: 1. Валенки."


async def test_buyout_alone_pays_the_cheapest_loot_that_suffices(sent):
    """`откуп`/`buyout` with no cards named (issue 14): 300 + 200 roubles, not the 800 Maxim."""
    state, table = _position(lambda s: s.stage == "choose")
    seat = state.active
    state.jail[seat] = 2
    state.hands[seat][:] = ["maxim", "nagan", "granata"]
    state.gear[seat][:] = []
    for text in ("откуп", "buyout", "викуп"):
        await typed(table, seat, text)
        assert sent[-1]["type"] == "buyout" and sorted(sent[-1]["cards"]) == ["granata", "nagan"], sent[-1]


async def test_trade_verbs(sent):
    """`trade NAME give CARD... for CARD...` (and обмен / обмін), a gift, an item named that the
    other may hold in hand, accept / decline a trade, withdraw; `обмен` is Coup's exchange only at
    a Coup table."""
    from commands.base import CommandError
    from games.revolution import GAME as ENGINE

    state, table = _position(lambda s: s.stage in ("choose", "end") and not any(s.jail))
    me, other = state.active, (state.active + 1) % 4
    for seat in (me, other):
        for cid in list(state.hands[seat]) + list(state.gear[seat]):
            (state.hands[seat] if cid in state.hands[seat] else state.gear[seat]).remove(cid)
            (state.turn_discard if deck().cards[cid].deck == "turn" else state.loot_discard).append(cid)
    for cid, seat, where in (("nagan", me, "hand"), ("paek", me, "hand"), ("kozhanka", me, "gear"),
                             ("maxim", other, "gear")):
        for pile in (state.loot_deck, state.loot_discard) + tuple(state.hands) + tuple(state.gear):
            if cid in pile:
                pile.remove(cid)
                break
        (state.hands[seat] if where == "hand" else state.gear[seat]).append(cid)
    name = table.seats[other].name
    for text, give, take in ((f"trade {name} give nagant, ration for maxim", ["nagan", "paek"], ["maxim"]),
                             (f"обмен {name} даю наган кожанку на максим", ["nagan", "kozhanka"], ["maxim"]),
                             (f"обмін {name} 3", ["kozhanka"], []),
                             (f"trade {name} give 1 for mauser", ["nagan"], ["mauser"])):
        sent.clear()
        await typed(table, me, text)
        assert sent == [{"type": "trade", "target": other, "give": give, "take": take}], (text, sent)
    with pytest.raises(CommandError) as err:
        await typed(table, me, "withdraw")
    assert err.value.message.key == "revolution.cmd.no_own_trade"
    with pytest.raises(CommandError) as err:
        await typed(table, other, "accept")
    assert err.value.message.key == "revolution.cmd.nothing_to_accept"
    ENGINE.apply(state, me, {"type": "trade", "target": other, "give": ["nagan"], "take": ["maxim"]})
    for text, who_types, expected in (("accept", other, {"type": "trade_accept", "seat": me}),
                                      ("принять", other, {"type": "trade_accept", "seat": me}),
                                      ("decline", other, {"type": "trade_decline", "seat": me}),
                                      (f"відхилити {table.seats[me].name}", other, {"type": "trade_decline", "seat": me}),
                                      ("withdraw", me, {"type": "trade_withdraw"}),
                                      ("обмен отмена", me, {"type": "trade_withdraw"}),
                                      ("отозвать", me, {"type": "trade_withdraw"})):
        sent.clear()
        await typed(table, who_types, text)
        assert sent == [expected], (text, sent)
    ENGINE.apply(state, other, {"type": "trade_accept", "seat": me})
    assert "maxim" in state.hands[me] and "nagan" in state.hands[other]


async def test_engine_errors_read_with_card_names(monkeypatch):
    """A rule error from the engine (through the table runner) comes back with the card's name
    and roubles in the reader's language."""
    import commands.games.revolution as verbs
    from commands.base import CommandError
    from games.base import RuleError

    async def refuse(ctx: Any, action: dict[str, Any]) -> None:
        raise CommandError("revolution.error.too_cheap", roubles=700, need=1000)

    monkeypatch.setattr(verbs, "game_action", refuse)
    state, table = _position(lambda s: s.stage in ("choose", "end")
                             and any(c == "paek" for c in s.hands[s.active]))
    with pytest.raises(CommandError) as err:
        await typed(table, state.active, "продать паёк")
    assert _render("ru", err.value.message) == "Это всего 700 рублей, а нужно 1\u00a0000 рублей."
    assert _render("en", err.value.message) == "That is only 700 roubles; you need 1,000 roubles."

    async def refuse_card(ctx: Any, action: dict[str, Any]) -> None:
        err = RuleError("revolution.error.speech_mismatch", card="rech_sovety")
        raise CommandError(err.key, **err.params)

    monkeypatch.setattr(verbs, "game_action", refuse_card)
    with pytest.raises(CommandError) as err:
        await typed(table, state.active, "drop паёк")
    assert "«Речь о Советах»" in _render("ru", err.value.message)
    assert "Speech on the Soviets" in _render("en", err.value.message)


def test_verbs_do_not_break_other_games():
    """`pass` is Coup's allow at a Coup table, the whispers pass at a «Шептуны» table and done
    here; `сбросить` is Coup's lose, the whispers discard and drop here."""
    from commands.base import GAME, REGISTRY, TABLE
    from commands.parser import _available, resolve

    import commands.load_all  # noqa: F401

    here = game_commands("revolution")
    coup = _available(frozenset({TABLE, GAME}), "player", "coup", len(REGISTRY))
    whispers = _available(frozenset({TABLE, GAME}), "player", "whispers", len(REGISTRY))
    for verb, mine, coup_key, whispers_key in (("pass", "done", "allow", "pass"),
                                               ("сбросить", "drop", "lose", "discard"),
                                               ("play", "play", None, "place"),
                                               ("обмен", "trade", "exchange", None),
                                               ("look", "look", "look", "look"),
                                               ("hand", "hand", "hand", "hand"),
                                               ("карты", "hand", "hand", "hand")):
        for commands, key in ((here, mine), (coup, coup_key), (whispers, whispers_key)):
            cmd, _ = resolve(verb, commands)
            assert (cmd.key if cmd else None) == key, (verb, key)
    keys = [c.key for c in REGISTRY]
    assert len(keys) == len(set(keys)), "a command key is registered twice (help.short.<key> would clash)"


# -- offline: every event renders in every language, after JSON -----------------------------------

def _fake_table(names: list[str]) -> Any:
    return SimpleNamespace(number=3, game_name="revolution", options={"deck": "default", "turn": 120},
                           seats=[SimpleNamespace(number=i, name=n, played_by_bot=n.startswith("Бот"))
                                  for i, n in enumerate(names)])


EVENT_SAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("revolution.start", {"players": 5, "deck": "default"}),
    ("revolution.roll", {"seat": 0, "roll": 6, "purpose": "first"}),
    ("revolution.roll", {"seat": 1, "roll": 3, "purpose": "escape"}),
    ("revolution.roll", {"seat": 1, "roll": 5, "purpose": "arrest"}),
    ("revolution.roll", {"seat": 2, "roll": 2, "purpose": "jail"}),
    ("revolution.first", {"seat": 2}),
    ("revolution.dealt", {"seat": 0, "cards": ["nagan", "yunker", "paek", "class_worker"]}),
    ("revolution.turn", {"seat": 1, "turn": 7}),
    ("revolution.drawn", {"seat": 1, "card": "dekret_o_zemle"}),
    ("revolution.drew_hidden", {"seat": 1, "deck": "turn", "n": 1}),
    ("revolution.drew_hidden", {"seat": 1, "deck": "loot", "n": 2}),
    ("revolution.got", {"seat": 1, "cards": ["maxim", "agitka"]}),
    ("revolution.deck_empty", {"deck": "loot"}),
    ("revolution.reshuffled", {"deck": "turn"}),
    ("revolution.fight", {"seat": 0, "card": "yunker", "from_hand": False}),
    ("revolution.fight", {"seat": 0, "card": "belyi_general", "from_hand": True}),
    ("revolution.offer", {"seat": 2, "share": 1}),
    ("revolution.offer", {"seat": 2, "share": 0}),
    ("revolution.accepted", {"seat": 0, "helper_seat": 2, "share": 2}),
    ("revolution.played", {"seat": 3, "card": "mandat_chk", "side": "opponent"}),
    ("revolution.played", {"seat": 3, "card": "paek"}),
    ("revolution.played", {"seat": 0, "card": "mandat_rekvizicii", "target_seat": 1, "item": "maxim"}),
    ("revolution.speech", {"seat": 1, "card": "rech_sovety", "side": "players", "bonus": 3}),
    ("revolution.passed", {"seat": 1}),
    ("revolution.fight_total", {"players_total": 9, "opponent_total": 8}),
    ("revolution.won", {"seat": 0, "card": "yunker", "levels": 1, "level": 5}),
    ("revolution.won", {"seat": 0, "card": "chekhi", "levels": 2, "level": 9, "helper_seat": 2}),
    ("revolution.loot_open", {"seat": 2, "cards": ["nagan"]}),
    ("revolution.loot_open", {"seat": 0, "cards": []}),
    ("revolution.loot_hidden", {"seat": 0, "n": 3}),
    ("revolution.lost", {"seat": 0, "card": "yunker"}),
    ("revolution.escaped", {"seat": 0}),
    ("revolution.caught", {"seat": 2}),
    ("revolution.penalty_levels", {"seat": 0, "n": 2, "level": 3}),
    ("revolution.penalty_levels", {"seat": 0, "n": 0, "level": 1}),
    ("revolution.penalty_item", {"seat": 0, "cards": ["maxim", "kozhanka"]}),
    ("revolution.jailed", {"seat": 0, "turns": 3}),
    ("revolution.jailed", {"seat": 0, "turns": 1}),
    ("revolution.penalty_hand", {"seat": 0, "cards": ["paek", "nagan"]}),
    ("revolution.penalty_class", {"seat": 0, "card": "class_worker"}),
    ("revolution.penalty_party", {"seat": 0, "card": "party_bolsheviks"}),
    ("revolution.cancelled", {"seat": 1, "card": "yunker"}),
    ("revolution.level", {"seat": 1, "level": 4, "n": 1}),
    ("revolution.level", {"seat": 1, "level": 2, "n": -2}),
    ("revolution.no_effect", {"seat": 1, "card": "fevralskaya"}),
    ("revolution.equipped", {"seat": 1, "card": "maxim"}),
    ("revolution.unequipped", {"seat": 1, "cards": ["nagan", "browning"]}),
    ("revolution.placed", {"seat": 1, "card": "party_kadets"}),
    ("revolution.replaced", {"seat": 1, "card": "party_bolsheviks"}),
    ("revolution.sold", {"seat": 1, "cards": ["maxim", "mauser"], "roubles": 1300, "levels": 1, "level": 3}),
    ("revolution.sold", {"seat": 1, "cards": ["maxim"] * 3, "roubles": 2400, "levels": 2, "level": 8}),
    ("revolution.discarded", {"seat": 1, "cards": ["paek"]}),
    ("revolution.revolution", {"seat": 1, "card": "oktyabrskaya", "party": "bolsheviks", "prev": None}),
    ("revolution.revolution", {"seat": 1, "card": "fevralskaya", "party": "kadets", "prev": "bolsheviks"}),
    ("revolution.counter", {"seat": 2, "card": "kontrrevolyuciya", "level": 1, "party": None}),
    ("revolution.counter", {"seat": 2, "card": "kontr_kontrrevolyuciya", "level": 2, "party": "bolsheviks"}),
    ("revolution.power", {"party": "left_sr"}),
    ("revolution.power", {"party": None}),
    ("revolution.arrest", {"seat": 0, "target_seat": 1, "card": "paek", "roll": 5, "success": True}),
    ("revolution.arrest", {"seat": 0, "target_seat": 1, "card": "paek", "roll": 2, "success": False}),
    ("revolution.arrest_number", {"seat": 0, "number": 4}),
    ("revolution.released", {"seat": 0, "how": "roll"}),
    ("revolution.released", {"seat": 0, "how": "buyout"}),
    ("revolution.released", {"seat": 0, "how": "card"}),
    ("revolution.released", {"seat": 0, "how": "term"}),
    ("revolution.released", {"seat": 0, "how": "amnesty"}),
    ("revolution.served", {"seat": 0, "turns": 2}),
    ("revolution.served", {"seat": 0, "turns": 1}),
    ("revolution.served", {"seat": 0, "turns": 0}),
    ("revolution.buyout", {"seat": 0, "cards": ["mauser"], "roubles": 500}),
    ("revolution.stolen", {"seat": 0, "target_seat": 1, "card": "maxim"}),
    ("revolution.class_gone", {"seat": 1, "card": "class_sailor"}),
    ("revolution.winner", {"seat": 0}),
    ("revolution.trade_offer", {"seat": 0, "target_seat": 1, "give_n": 2, "take_n": 1}),
    ("revolution.trade_offer", {"seat": 0, "target_seat": 1, "give_n": 1, "take_n": 0}),
    ("revolution.trade_terms", {"seat": 0, "other_seat": 1, "gives": ["nagan", "paek"], "gets": ["maxim"]}),
    ("revolution.trade_terms", {"seat": 0, "other_seat": 1, "gives": ["nagan"], "gets": []}),
    ("revolution.trade_asked", {"seat": 1, "other_seat": 0, "gives": ["maxim"], "gets": ["nagan", "paek"]}),
    ("revolution.traded", {"seat": 1, "offerer_seat": 0, "gave_n": 1, "got_n": 2}),
    ("revolution.trade_done", {"seat": 1, "other_seat": 0, "gave": ["maxim"], "got": ["nagan", "paek"]}),
    ("revolution.trade_declined", {"seat": 1, "offerer_seat": 0}),
    ("revolution.trade_withdrawn", {"seat": 0, "target_seat": 1}),
    ("revolution.trade_closed", {"seat": 0, "target_seat": 1}),
]


def _event_keys_of_engine() -> set[str]:
    from pathlib import Path

    import games.revolution.engine as engine

    text = Path(engine.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'"(revolution\.[a-z_]+)"', text))
    keys |= {f"revolution.{name}" for name in re.findall(r'f"revolution\.\{name\}"', text) and
             ("penalty_class", "penalty_party")}
    return {k for k in keys if not k.startswith(("revolution.error", "revolution.outcome"))}


def test_every_event_renders_per_reader_and_survives_json():
    from world.i18n import catalog, strip_marks, t
    from world.presenters import present_params

    sampled = {key for key, _ in EVENT_SAMPLES}
    engine_keys = _event_keys_of_engine()
    assert engine_keys, "no event keys found in the engine"
    assert engine_keys <= sampled, engine_keys - sampled
    d = deck()
    names = ["Анна", "Boris", "Бот-Евсей", "Дуня", "Ева"]
    table = _fake_table(names)
    for key, raw in EVENT_SAMPLES:
        params = json.loads(json.dumps(present_params(table, raw)))  # as an inbox item keeps it
        for lang in LANGS:
            assert key in catalog(lang), (lang, key)
            text = strip_marks(t(lang, key, **params))
            assert "{" not in text and "$msg" not in text and not LEFTOVER_KEY.search(text), (lang, key, text)
            assert "$list" not in text and "None" not in text, (lang, key, text)
            for card_key in ("card", "item"):
                if isinstance(raw.get(card_key), str):
                    name = d.cards[raw[card_key]].name["en" if lang == "en" else ("ru" if lang == "ru" else "en")]
                    if lang == "uk":
                        name = d.cards[raw[card_key]].name.get("uk") or d.cards[raw[card_key]].name["en"]
                    assert name in text, (lang, key, text)
            if "seat" in raw and key not in ("revolution.dealt", "revolution.got", "revolution.arrest_number",
                                             "revolution.trade_terms", "revolution.trade_asked",
                                             "revolution.trade_done"):
                from world import morph  # the name in whichever case the line asks for ({seat:gen})

                forms = {morph.inflect(lang, names[raw["seat"]], case) for case in morph.CASES}
                assert any(form in text for form in forms), (lang, key, text)

    def render(lang: str, key: str, raw: dict[str, Any]) -> str:
        return strip_marks(t(lang, key, **json.loads(json.dumps(present_params(table, raw)))))

    sold = {"seat": 1, "cards": ["maxim", "mauser"], "roubles": 1300, "levels": 1, "level": 3}
    assert render("ru", "revolution.sold", sold) == (
        "Boris продаёт Пулемёт «Максим», Маузер за 1\u00a0300 рублей: +1 уровень, теперь уровень 3.")
    assert render("en", "revolution.sold", sold) == (
        "Boris sells Maxim machine gun, Mauser pistol for 1,300 roubles: +1 level, now level 3.")
    assert "за 1\u00a0300 рублів: +1 рівень" in render("uk", "revolution.sold", sold)
    # Plurals: 1 уровень, 2 уровня, 5 уровней; рубль; ход.
    for lang, forms in (("ru", ("1 уровень", "2 уровня", "5 уровней", "21 уровень")),
                        ("uk", ("1 рівень", "2 рівні", "5 рівнів", "21 рівень")),
                        ("en", ("1 level", "2 levels", "5 levels", "21 levels"))):
        for n, form in zip((1, 2, 5, 21), forms):
            assert t(lang, "revolution.delta.up", n=n).endswith(form), (lang, n)
    for n, form in ((1, "1 рубль"), (2, "2 рубля"), (5, "5 рублей"), (1000, "1\u00a0000 рублей"),
                    (2100, "2\u00a0100 рублей"), (21, "21 рубль")):
        assert render("ru", "revolution.buyout", {"seat": 0, "cards": ["mauser"], "roubles": n}).endswith(
            f"({form}).")
    assert render("en", "revolution.buyout", {"seat": 0, "cards": ["mauser"], "roubles": 1000}).endswith(
        "(1,000 roubles).")
    assert render("ru", "revolution.jailed", {"seat": 0, "turns": 3}) == "Анна садится в тюрьму на 3 хода."
    assert render("ru", "revolution.jailed", {"seat": 0, "turns": 5}) == "Анна садится в тюрьму на 5 ходов."
    assert render("en", "revolution.jailed", {"seat": 0, "turns": 1}) == "Анна goes to jail for 1 turn."
    assert render("ru", "revolution.level", {"seat": 1, "level": 2, "n": -2}) == "Boris теряет 2 уровня: теперь уровень 2."
    assert render("ru", "revolution.revolution", {"seat": 1, "card": "oktyabrskaya", "party": "bolsheviks",
                                                  "prev": None}).startswith(
        "Boris играет «Октябрьская революция»: к власти приходят Большевики (до этого: никто).")
    assert render("en", "revolution.power", {"party": "left_sr"}) == "In power: Left SRs."
    assert render("ru", "revolution.roll", {"seat": 2, "roll": 4, "purpose": "escape"}) == (
        "Бот-Евсей бросает кубик (побег): 4.")
    assert render("en", "revolution.won", {"seat": 0, "card": "chekhi", "levels": 2, "level": 9, "helper_seat": 2}) == (
        "Анна beats Czechoslovak Legion with the help of Бот-Евсей: +2 levels, now level 9.")
    assert render("en", "revolution.played", {"seat": 0, "card": "mandat_rekvizicii", "target_seat": 1,
                                              "item": "maxim"}) == (
        "Анна plays Requisition warrant and takes Maxim machine gun from Boris.")  # (the taking prints no line)
    assert (t("en", "game.revolution"), t("ru", "game.revolution"), t("uk", "game.revolution")) == (
        "Revolution", "Революция", "Революція")


def test_rules_and_names():
    from world.i18n import strip_marks, t

    ru = strip_marks(t("ru", "rules.revolution"))
    en = strip_marks(t("en", "rules.revolution"))
    uk = strip_marks(t("uk", "rules.revolution"))
    for word in ("10 уровня", "1000 рублей", "БОЛЬШЕ", "контр-контр-контрреволюцию", "500 рублей", "5-6",
                 "втёмную", "в открытую", "Помощнику уровень не начисляется", "Сроки не суммируются",
                 "2 руки", "речь КАРТА ТЕКСТ", "арест ИМЯ КАРТА N"):
        assert word in ru, word
    for word in ("level 10", "1000 roubles", "strictly more", "counter-counter-counter-revolution",
                 "500 roubles", "face down", "face up", "gains no level", "never add up", "speech CARD TEXT"):
        assert word in en, word
    assert "Революція" in uk and "10 рівня" in uk


def _all_texts(messages: list[Any], lang: str) -> list[str]:
    return [_render(lang, m) for m in messages]


def test_view_and_status_render_for_every_viewer():
    """`look` and the status line, for each seat and a spectator, in each language: no template
    left over; the viewer's own hand (with numbers and texts) and nobody else's."""
    from games.base import SPECTATOR
    from games.revolution import GAME as ENGINE
    from world.presenters import revolution as presenter

    seen_stages: set[str] = set()
    for players in (2, 4, 6):
        names = NAMES[:players]
        rng = random.Random(players)
        state = ENGINE.new(players, {}, 77 + players)
        table = _fake_table(names)
        for step in range(400):
            if ENGINE.outcome(state) is not None:
                break
            awaited = {a.seat for a in ENGINE.awaiting(state)}
            if step % 5 == 0 or state.stage in ("counter", "jail") or (state.fight and state.fight["helper"] is not None):
                seen_stages.add(state.stage)
                for viewer in [*range(players), SPECTATOR]:
                    view = ENGINE.view(state, viewer)
                    seat = None if viewer == SPECTATOR else viewer
                    lines = presenter.describe(table, view, seat, 42, awaited)
                    lines += presenter.status(table, view, seat, 42, awaited)
                    for lang in LANGS:
                        for text in _all_texts(lines, lang):
                            assert "{" not in text and "$msg" not in text and not LEFTOVER_KEY.search(text), text
                            assert "None" not in text, text
                    ru = "\n".join(_all_texts(lines, "ru"))
                    en = "\n".join(_all_texts(lines, "en"))
                    assert "«Революция», ход" in ru and "Revolution, turn" in en
                    for number in range(players):
                        assert names[number] in ru
                    if seat is None:
                        assert "Ваша рука" not in ru and "Your hand" not in en
                    else:
                        hand = view["hand"]
                        if hand:
                            assert "Ваша рука (" in ru
                            first = ENGINE.deck_of().cards[hand[0]]
                            assert f"1. {first.name['ru']} — {first.text['ru']}" in ru
                            assert f"1. {first.name['en']} — {first.text['en']}" in en
                        else:
                            assert "Ваша рука пуста" in ru
                        if seat in awaited:  # a window open to all is no "your move"
                            reaction = state.stage == "counter" or (state.stage == "fight" and view.get("active") != seat)
                            assert ("Можно ответить" if reaction else "Ваш ход") in ru
                    if state.stage == "fight":
                        assert "Бой:" in ru and "Fight:" in en
                    if state.stage == "counter":
                        assert "Окно контрреволюции" in ru
            wait = rng.choice(ENGINE.awaiting(state))
            legal = ENGINE.legal(state, wait.seat)
            ENGINE.apply(state, wait.seat, ENGINE.bot_action(ENGINE.view(state, wait.seat), legal, rng, "normal"))
        view = ENGINE.view(state, 0)
        text = "\n".join(_all_texts(presenter.describe(table, view, 0, None, set()), "en"))
        assert "Table 3: Revolution" in text
    assert {"open", "choose", "end", "fight"} <= seen_stages, seen_stages


# -- over the wire -------------------------------------------------------------------------------

# The messages that mean "that command was not understood" (as opposed to a rule refusing a move
# that a faster player or bot made stale).
MISPARSES = ("bad_card", "ambiguous_card", "ambiguous_player", "no_player", "extra_words", "twice",
             "arrest_usage", "offer_usage", "speech_usage", "steal_usage", "need_text", "not_that_card",
             "which_card", "which_item", "whose_item", "not_hinder")


def parse_error_signatures() -> list[str]:
    return error_signatures(lambda cat: [f"revolution.cmd.{k}" for k in MISPARSES])


def own_cards(view: dict[str, Any]) -> tuple:
    """What a player's card words refer to: the stage, their hand and their equipment."""
    me = view.get("me")
    gear = view.get("gear") or []
    return view.get("stage"), tuple(view.get("hand") or ()), tuple(gear[me]) if me is not None and me < len(gear) else ()


def assert_understood_or_stale(player: "Player") -> None:
    """Every "not understood" the player got came after their own cards changed between the view
    they chose from and the command (a bot took, traded or made them play a card meanwhile): a
    person's command goes stale the same way. Any other is a verb that failed to parse."""
    stale = Counter(refusal for _, refusal, was_stale in player.refused if was_stale)
    text = player.typer.text
    for signature in parse_error_signatures():
        seen = text.count(signature)
        if seen > stale[signature]:
            at = text.find(signature)
            raise AssertionError(f"{player.name}: a command was not understood ({signature!r}; {seen} times, "
                                 f"{stale[signature]} after a change); around it:\n{text[max(0, at - 2500):at + 500]}")


class Player(WirePlayer):
    """A person at the «Революция» table (tests/wire.py): plays the bots' policy, now and then
    anything legal; a polite client that types the next answer only once this one took effect."""

    winner_key = "revolution.winner"

    def __init__(self, name: str, lang: str, typer: Any, eyes: Any, seed: int) -> None:
        super().__init__(name, lang, typer, eyes, seed)
        self.refused: list[tuple[str, str, bool]] = []  # (typed, refusal, whether the view had changed)
        self.chosen_from: tuple = ()
        self.chosen_view: dict = {}  # the whole view the last command was chosen from

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        """Mostly what a sensible player (the bot's policy) would do; sometimes anything legal,
        so that every verb gets typed."""
        from games.revolution import GAME as ENGINE

        if self.rng.random() < 0.2:
            rare = [a for a in legal if a["type"] not in ("pass", "arrest")]
            return self.rng.choice(rare or legal)
        return ENGINE.bot_action(view, legal, self.rng, "normal")

    def check(self, view: dict[str, Any], awaiting: dict[str, Any]) -> None:
        assert view["me"] == awaiting["seat"], (view, awaiting)

    def answer(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        self.chosen_from = own_cards(view)
        self.chosen_view = view
        action = self.choose(view, legal)
        text, _ = command_for(action, self.lang, self.names(), view, legal, self.rng, steady=True)
        return action, text

    async def sent_one(self, seat: int, count: int, typed: int) -> None:
        await self.confirmed(seat, count, typed)

    def refusals(self) -> list[str]:
        """Fixed text of every refusal this player may get (rule errors, verb errors, flood)."""
        from world.i18n import catalog

        cat = catalog(self.lang)
        return sorted(signatures(
            value for key, value in cat.items() if isinstance(value, str)
            and (key.startswith(("revolution.error.", "revolution.cmd.", "table.error", "cmd.unknown"))
                 or key in ("table.no_game", "table.not_seated", "input.flood_warning", "input.flood_muted"))))

    async def confirmed(self, seat: int, count: int, typed: int) -> None:
        refusals = self._refusals = getattr(self, "_refusals", None) or self.refusals()

        def done() -> bool:
            for name, data in self.eyes.gmcp_messages[count:]:
                if name == "Korchma.Game.Event" and (data["params"].get("seat") == seat
                                                    or data["key"] in ("revolution.turn", "revolution.winner")):
                    return True
            fresh = self.typer.text[typed:]
            return self.over() or any(r in fresh for r in refusals)

        deadline = asyncio.get_running_loop().time() + 3.0
        while not done() and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)  # the refusal may come on the other connection (SSH)
        fresh = self.typer.text[typed:]
        refused = [r for r in refusals if r in fresh]
        if refused:
            _, latest = self.latest("Korchma.Game.View")
            # Stale: the cards changed, or the question did (a counter-revolution played meanwhile
            # raises the level a counter must have, as for a person typing at the same moment).
            changed = own_cards(latest["view"]) != self.chosen_from or latest["view"] != self.chosen_view
            self.refused.extend((self.sent[-1][1], r, changed) for r in refused)


def assert_private(player: Player, seat: int) -> None:
    """Every view this player's session got is their own seat's, with no one else's hand; the
    whispers (dealt cards, drawn cards, the secret number) name only them."""
    views = [data for name, data in player.eyes.gmcp_messages if name == "Korchma.Game.View"]
    assert views
    for data in views:
        assert data["seat"] == seat and data["view"]["me"] == seat
        assert "hands" not in data["view"] and "turn_cards" not in data["view"] and "loot_cards" not in data["view"]
    whispers = [data for name, data in player.eyes.gmcp_messages
                if name == "Korchma.Game.Event" and data["whisper"]]
    assert any(d["key"] == "revolution.dealt" for d in whispers)
    for data in whispers:
        assert data["params"]["seat"] == seat, data


async def test_whole_game_telnet_ssh_and_bots(server):
    """Anna (telnet, Russian) and Boris (SSH, English) play with two bots until someone reaches
    level 10; a guest (Ukrainian) watches and sees no hand and no whisper."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    anna, boris, boris_eyes, guest = await company(server, wide=True)

    # Short clocks for the steps a person might miss (the rules stay as they are).
    await sit_down_and_start(anna, boris, guest, "открыть революция turn=20 reaction=10 seats=4", 2)
    await anna.expect("Начинается «Революция»", timeout=10)
    await boris.expect("Revolution begins", timeout=10)
    await guest.expect("Починається «Революція»", timeout=10)
    await anna.expect("Мастер шепчет: ваши карты — ", timeout=10)
    await boris.expect("The Master whispers: your cards are ", timeout=10)

    anna.send_line("карты")
    await anna.expect(re.compile(r"Стол \d+: «Революция», ход \d+\. У власти: никто\."))
    await anna.expect(re.compile(r"Ваша рука \(\d+ карт[аы]?, предел 5\):"))
    await anna.expect(re.compile(r"  1\. \S.* — \S"))
    boris.send_line("rules revolution")
    await boris.expect("Revolution")

    players = [Player("Анна", "ru", anna, anna, 1), Player("Boris", "en", boris, boris_eyes, 2)]
    await anna.gmcp("Korchma.Game.View", timeout=10)
    await boris_eyes.gmcp("Korchma.Game.View", timeout=10)
    names = players[0].names()
    assert len(names) == 4 and names[:2] == ["Анна", "Boris"], names
    until = loop.time() + 140  # about 30 s alone; room for a loaded machine (the test timeout is 180 s)
    await asyncio.gather(*(p.play(until) for p in players))
    await anna.expect(FINISHED, timeout=15)
    await boris.expect(FINISHED, timeout=15)
    await guest.expect(FINISHED, timeout=15)
    elapsed = loop.time() - started
    assert all(p.awaitings > 0 for p in players)

    for player in players:
        assert_understood_or_stale(player)
    winner_events = [d for n, d in anna.gmcp_messages if n == "Korchma.Game.Event" and d["key"] == "revolution.winner"]
    assert len(winner_events) == 1
    winner = names[winner_events[0]["params"]["seat"]]
    assert f"{winner} достигает 10 уровня и возглавляет революцию!" in anna.text
    assert f"{winner} reaches level 10 and leads the revolution!" in boris.text
    assert f"{winner} досягає 10 рівня й очолює революцію!" in guest.text
    # Each reads the game in their own language, card names from the deck included; dice show.
    assert re.search(r"бросает кубик \(кто ходит первым\): \d", anna.text)
    assert re.search(r"rolls the die \(who moves first\): \d", boris.text)
    assert re.search(r"\S+ тянет в открытую: \S", anna.text)
    assert re.search(r"\S+ draws face up: \S", boris.text)
    assert re.search(r"\S+ тягне відкрито: \S", guest.text)
    d = deck()
    ru_names = {c.name["ru"] for c in d.cards.values()}
    en_names = {c.name["en"] for c in d.cards.values()}
    drawn_ru = re.findall(r"тянет в открытую: (.+?)\.\r?\n", anna.text)
    drawn_en = re.findall(r"draws face up: (.+?)\.\r?\n", boris.text)
    assert drawn_ru and all(n in ru_names for n in drawn_ru), drawn_ru[:5]
    assert drawn_en and all(n in en_names for n in drawn_en), drawn_en[:5]
    assert re.search(r"\[ход \d+: \S+; у власти: .+?\] Анна \d+", anna.text)
    assert re.search(r"\[turn \d+: \S+; in power: .+?\] Анна \d+", boris.text)
    typed = {a["type"] for p in players for a, _ in p.sent}
    assert {"draw", "pass"} <= typed, typed
    # Nobody sees another's hand: a watcher gets no whisper and no private view.
    assert "шепоче" not in guest.text and "шепчет" not in guest.text and "whispers:" not in guest.text
    assert "Ваша рука" not in guest.text
    for name, data in guest.gmcp_messages:
        assert not (name == "Korchma.Game.Event" and data["whisper"])
        if name == "Korchma.Game.View":
            assert data["seat"] is None
            assert not {"hand", "hands", "me", "turn_cards", "loot_cards"} & set(data["view"])
    assert_private(players[0], names.index("Анна"))
    assert_private(players[1], names.index("Boris"))
    anna.send_line("правила революция")
    await anna.expect("гонка в духе «Манчкина»")
    print(f"\nrevolution wire game: {elapsed:.1f} s, Анна answered {players[0].awaitings} waits, "
          f"Boris {players[1].awaitings}; typed: {sorted(typed)}; refused (a stale wait): "
          f"{[r for p in players for r in p.refused]}")
    for client in (anna, boris_eyes, guest):
        await client.close()
    await boris.close()
