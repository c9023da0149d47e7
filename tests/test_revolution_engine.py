"""«Революция» engine: each rule on a set position, the default deck, bad deck files.

Positions are built from a real game (``fresh``): every card is moved with ``put`` from wherever it
lies, so cards stay conserved. Dice are scripted with ``Dice`` (a stand-in for the game's RNG whose
``randint`` returns the given rolls) only where a test needs a particular roll.
"""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from games.base import MASTER, SPECTATOR, RuleError
from games.revolution import GAME
from games.revolution import deck as D
from games.revolution import engine as E

DECK = D.load("default")


class Dice(random.Random):
    """The game's RNG with scripted die rolls (shuffles stay seeded)."""

    def __init__(self, rolls):
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a, b):
        return self.rolls.pop(0)


def fresh(players=3, seed=1):
    """A game at turn 1, seat 0 to draw face up, every hand empty (cards back in the decks)."""
    s = GAME.new(players, {}, seed)
    for seat in range(players):
        for cid in s.hands[seat]:
            (s.turn_deck if DECK.cards[cid].deck == "turn" else s.loot_deck).insert(0, cid)
        s.hands[seat] = []
    s.active = 0
    s.stage = "open"
    return s


def put(s, cid, where, seat=None):
    """Move one copy of ``cid`` from wherever it lies to ``where``: hand, gear, cls, pty, top (of its deck)."""
    for pile in [s.turn_deck, s.loot_deck, s.turn_discard, s.loot_discard] + s.hands + s.gear:
        if cid in pile:
            pile.remove(cid)
            break
    else:
        for slot in (s.cls, s.pty):
            if cid in slot:
                slot[slot.index(cid)] = None
                break
        else:
            raise AssertionError(f"no free copy of {cid}")
    if where == "hand":
        s.hands[seat].append(cid)
    elif where == "gear":
        s.gear[seat].append(cid)
    elif where == "cls":
        assert s.cls[seat] is None
        s.cls[seat] = cid
    elif where == "pty":
        assert s.pty[seat] is None
        s.pty[seat] = cid
    elif where == "top":
        (s.turn_deck if DECK.cards[cid].deck == "turn" else s.loot_deck).append(cid)


def keys(events):
    return [e.key for e in events]


def find(events, key):
    return [e for e in events if e.key == key]


def everyone_pass(s, skip=()):
    events = []
    for seat in range(s.players):
        if seat not in s.passed and seat not in skip and s.stage in ("fight", "counter"):
            events += GAME.apply(s, seat, {"type": "pass"})
    return events


def fight_with(s, cid, seat=0):
    put(s, cid, "top")
    s.active = seat
    s.stage = "open"
    return GAME.apply(s, seat, {"type": "draw"})


def error(s, seat, action):
    with pytest.raises(RuleError) as info:
        GAME.apply(s, seat, action)
    return info.value.key.removeprefix("revolution.error.")


TOTAL = Counter(DECK.ids("turn") + DECK.ids("loot"))


def conserved(s):
    return Counter(s.all_cards()) == TOTAL


# ------------------------------------------------------------------------------------ setup


def test_setup_levels_cards_and_first_roll():
    """[SEED] "Всем игрокам ... начисляется один уровень и раздается по 2 карты из каждой колоды";
    "Броском кубика определяется игрок делающий первый ход"."""
    for seed in range(20):
        s = GAME.new(4, {}, seed)
        assert s.levels == [1] * 4
        for hand in s.hands:
            assert sorted(DECK.cards[c].deck for c in hand) == ["loot", "loot", "turn", "turn"]
        events = GAME.start_events(s)
        last = s.first_rolls[-1]
        assert max(r for _, r in last) == dict(last)[s.active]
        assert [r for _, r in last].count(dict(last)[s.active]) == 1
        assert len(find(events, "revolution.roll")) == sum(len(r) for r in s.first_rolls)
        assert [e.audience.seats for e in find(events, "revolution.dealt")] == [(0,), (1,), (2,), (3,)]
        assert conserved(s)


def test_player_counts_and_options():
    """[PROPOSAL] "Player count: ... Use 3–6, with 2 allowed"."""
    for n in (2, 3, 6):
        GAME.new(n, {}, 1)
    for n in (1, 7):
        with pytest.raises(RuleError) as info:
            GAME.new(n, {}, 1)
        assert info.value.key == "revolution.error.bad_option"
    assert GAME.validate_options({"hand": "6", "escape": "4"})["hand"] == 6
    with pytest.raises(RuleError):
        GAME.validate_options({"colour": "red"})
    with pytest.raises(D.DeckError) as info:
        GAME.validate_options({"deck": "nosuchdeck"})
    assert "nosuchdeck" in str(info.value)


# ------------------------------------------------------------------------------------ the turn


def test_face_up_opponent_must_be_fought():
    """[SEED] "Если это карта-противник, то игрок должен вступить с ним в бой"."""
    s = fresh()
    events = fight_with(s, "gorodovoy")
    assert s.stage == "fight" and s.fight["card"] == "gorodovoy" and "gorodovoy" in s.in_play
    assert keys(events)[:2] == ["revolution.drawn", "revolution.fight"]
    # The fighter, with an empty hand, has nothing to answer but pass: only the others (who may
    # offer help) are asked (issue 14, "Nobody waits on a window they cannot use").
    assert {a.seat for a in GAME.awaiting(s)} == {1, 2}
    assert all(a.kind == "reaction" and a.default == {"type": "pass"} for a in GAME.awaiting(s))


def test_strictly_more_to_win():
    """[SEED] "Для победы у игрока должно быть очков атаки БОЛЬШЕ чем у его противника"."""
    s = fresh()
    s.rng = Dice([6])
    fight_with(s, "gorodovoy")  # level 1 vs a level 1 player: a tie loses
    events = everyone_pass(s)
    assert "revolution.lost" in keys(events) and s.levels[0] == 1
    s = fresh()
    put(s, "shtyk", "gear", 0)
    fight_with(s, "gorodovoy")
    events = everyone_pass(s)
    assert "revolution.won" in keys(events) and s.levels[0] == 2


def test_attack_is_level_gear_one_shot_class_party():
    """[SEED] "Очки атаки складываются из уровня, бонусов от экипировки, разовых бонусов и
    преимуществ класса/партийности"."""
    s = fresh(4)
    s.levels[0] = 3
    put(s, "nagan", "gear", 0)          # +2
    put(s, "kepka", "gear", 0)          # +1, +1 more for a Worker
    put(s, "class_worker", "cls", 0)
    put(s, "party_bolsheviks", "pty", 0)
    put(s, "party_bolsheviks", "pty", 1)
    put(s, "party_kadets", "pty", 2)
    s.ruling = "bolsheviks"
    assert E._attack(s, 0) == 3 + 2 + 1 + 1 + 2  # one fellow member at liberty: +2
    s.jail[1] = 2
    assert E._attack(s, 0) == 7  # a jailed fellow member does not count
    s.jail[1] = 0
    put(s, "paek", "hand", 0)
    fight_with(s, "belyi_general")
    GAME.apply(s, 0, {"type": "play", "card": "paek"})
    assert E._totals(s) == (9 + 2, 16)


def test_win_alone_loot_face_down():
    """[SEED] "В случае если игрок победил самостоятельно — карты барахла он берет в закрытую"."""
    s = fresh()
    s.levels[0] = 5
    fight_with(s, "yunker")  # level 4, 2 loot
    events = everyone_pass(s)
    assert s.levels[0] == 6
    hidden = find(events, "revolution.drew_hidden")[0]
    assert hidden.audience.kind == "all" and hidden.params == {"seat": 0, "deck": "loot", "n": 2}
    got = find(events, "revolution.got")[0]
    assert got.audience.seats == (0,) and len(got.params["cards"]) == 2 and len(s.hands[0]) == 2
    assert s.stage == "end" and not s.in_play and "yunker" in s.turn_discard


def test_levels_by_opponent_and_class_loot():
    """[PROPOSAL] "opponent level >= 10 gives 2 levels, otherwise 1"; Крестьянин: +1 loot card."""
    s = fresh()
    s.levels[0] = 8
    put(s, "maxim", "gear", 0)
    put(s, "class_peasant", "cls", 0)
    put(s, "mandat_chk", "hand", 0)
    fight_with(s, "kontrrazvedka")  # level 10, 2 levels, 3 loot
    GAME.apply(s, 0, {"type": "play", "card": "mandat_chk", "side": "players"})
    events = everyone_pass(s)
    assert s.levels[0] == 10 and s.stage == "over" and GAME.outcome(s).winners == (0,)
    s = fresh()
    s.levels[0] = 3
    put(s, "class_peasant", "cls", 0)
    fight_with(s, "gorodovoy")
    events = everyone_pass(s)
    assert find(events, "revolution.drew_hidden")[0].params["n"] == 2


def test_helper_for_share_face_up_no_level():
    """[SEED] "ему может помогать другой игрок, за определенное количество барахла ... если с
    чьей-либо помощью — в открытую. Уровень за помощь в бою НЕ НАЧИСЛЯЕТСЯ"."""
    s = fresh()
    s.levels[1] = 6
    fight_with(s, "banda")  # level 6, 2 loot
    assert error(s, 0, {"type": "offer", "share": 1}) == "bad_action"
    GAME.apply(s, 1, {"type": "offer", "share": 1})
    GAME.apply(s, 2, {"type": "offer", "share": 0})
    assert error(s, 1, {"type": "offer", "share": 0}) == "already_offered"
    assert error(s, 1, {"type": "accept", "seat": 2}) == "not_fighter"
    put(s, "rech_sovety", "hand", 0)  # a card to play keeps the fighter's window open
    GAME.apply(s, 0, {"type": "accept", "seat": 1})
    assert error(s, 0, {"type": "accept", "seat": 2}) == "no_helper_slot"  # one helper only
    events = everyone_pass(s)
    won = find(events, "revolution.won")[0].params
    assert won["helper_seat"] == 1 and s.levels == [2, 6, 1]
    opened = find(events, "revolution.loot_open")
    assert [(e.params["seat"], len(e.params["cards"])) for e in opened] == [(1, 1), (0, 1)]
    assert all(e.audience.kind == "all" for e in opened)


def test_anyone_may_hinder_even_from_jail_but_jail_cannot_help():
    """[SEED] "Помогать может только один игрок, мешать все"; "Игрок попавший в тюрьму ... не может
    помогать в бою. Мешать в бою, применяя карты из своей руки он может"."""
    s = fresh()
    s.levels[0] = 4
    s.jail[2] = 2
    put(s, "mandat_chk", "hand", 2)
    put(s, "makhorka", "hand", 1)
    fight_with(s, "gorodovoy")
    assert error(s, 2, {"type": "offer", "share": 0}) == "jailed"
    assert error(s, 2, {"type": "play", "card": "mandat_chk", "side": "players"}) == "jailed"
    GAME.apply(s, 2, {"type": "play", "card": "mandat_chk", "side": "opponent"})
    GAME.apply(s, 1, {"type": "play", "card": "makhorka", "side": "opponent"})
    assert E._totals(s) == (4, 6)
    events = everyone_pass(s)
    assert "revolution.lost" in keys(events)
    assert "mandat_chk" in s.turn_discard and "makhorka" in s.loot_discard


def test_a_card_reopens_the_window():
    """revolution.md 2.3 + contract: the fight is a reaction window; any card clears the passes."""
    s = fresh()
    put(s, "paek", "hand", 1)
    fight_with(s, "naletchik")
    window = s.window
    GAME.apply(s, 0, {"type": "pass"})
    GAME.apply(s, 2, {"type": "pass"})
    GAME.apply(s, 1, {"type": "play", "card": "paek"})
    assert s.passed == [] and s.window != window and s.stage == "fight"
    everyone_pass(s)
    assert s.stage == "end" and s.levels[0] == 2


def test_speech_needs_the_text():
    """[SEED] "Чтобы карта дала бонус, необходимо прочитать написанную на ней речь и указать сторону";
    match rule: case, punctuation and ё/е do not matter; ru or en."""
    s = fresh()
    put(s, "rech_nichem", "hand", 1)
    put(s, "rech_zemlya", "hand", 0)
    put(s, "class_intelligent", "cls", 0)
    fight_with(s, "gorodovoy")
    assert error(s, 1, {"type": "speech", "card": "rech_nichem", "text": "Вся власть Советам", "side": "opponent"}) \
        == "speech_mismatch"
    assert error(s, 1, {"type": "speech", "card": "rech_nichem", "text": "Кто был ничем", "side": "opponent"}) \
        == "speech_mismatch"
    GAME.apply(s, 1, {"type": "speech", "card": "rech_nichem", "text": "  кто БЫЛ ничем тот станет всем ",
                      "side": "opponent"})
    GAME.apply(s, 0, {"type": "speech", "card": "rech_zemlya",
                      "text": "land to the peasants... FACTORIES to the workers", "side": "players"})
    assert s.fight["ob"] == 3 and s.fight["pb"] == 3 + 1  # Интеллигент: +1 on own speeches
    assert E.normalize_speech("Ещё, ёлки!") == "еще елки"


def test_losing_escape_roll_and_penalty():
    """[PROPOSAL] "Escape: roll 1d6; 5–6 succeeds ... On failure, apply the opponent's Расправа"."""
    s = fresh()
    s.levels[0] = 3
    s.rng = Dice([4])
    fight_with(s, "ofitser")  # level 7: lose 2 levels
    events = everyone_pass(s)
    assert find(events, "revolution.roll")[0].params == {"seat": 0, "roll": 4, "purpose": "escape"}
    assert "revolution.caught" in keys(events) and s.levels[0] == 1
    s = fresh()
    s.levels[0] = 3
    s.rng = Dice([5])
    fight_with(s, "ofitser")
    events = everyone_pass(s)
    assert "revolution.escaped" in keys(events) and s.levels[0] == 3
    # Матрос: +1 to escape (4 is enough); Казачий разъезд: -1 (needs 6 then)
    s = fresh()
    put(s, "class_sailor", "cls", 0)
    s.rng = Dice([4])
    fight_with(s, "ofitser")
    assert "revolution.escaped" in keys(everyone_pass(s))
    s = fresh()
    s.rng = Dice([5])
    fight_with(s, "kazaki")
    assert "revolution.caught" in keys(everyone_pass(s))


def test_penalties_item_jail_hand_class_party():
    """[PROPOSAL] "lose a level or an item, or go to jail for N turns"; never below level 1."""
    s = fresh()
    put(s, "maxim", "gear", 0)
    put(s, "shtyk", "gear", 0)
    put(s, "kepka", "gear", 0)
    put(s, "paek", "hand", 0)
    put(s, "class_worker", "cls", 0)
    s.rng = Dice([1, 1, 1, 1])
    fight_with(s, "chekhi")  # lose the 2 most expensive items
    everyone_pass(s)
    assert s.gear[0] == ["kepka"]
    s.stage, s.fight = "open", None
    fight_with(s, "golod")  # discard hand, lose a level (never below 1)
    events = everyone_pass(s)
    assert s.hands[0] == [] and s.levels[0] == 1 and find(events, "revolution.penalty_levels")[0].params["n"] == 0
    s.stage = "open"
    fight_with(s, "anarkho_matros")  # discard the class card
    everyone_pass(s)
    assert s.cls[0] is None and "class_worker" in s.turn_discard
    s.stage = "open"
    fight_with(s, "zhandarm")  # jail 2 turns: the turn ends at once
    events = everyone_pass(s)
    assert s.jail[0] == 2 and s.active == 1 and s.stage == "open"
    assert conserved(s)


def test_auto_escape_and_cancel_fight():
    """Cards: «Поддельные документы» (escape without a roll), «Декрет о мире» (the fight is off)."""
    s = fresh()
    put(s, "fake_docs", "hand", 0)
    put(s, "dekret_o_mire", "hand", 1)
    fight_with(s, "belyi_general")
    assert error(s, 1, {"type": "play", "card": "fake_docs"}) == "no_such_card"
    GAME.apply(s, 0, {"type": "play", "card": "fake_docs"})
    events = everyone_pass(s)
    assert "revolution.escaped" in keys(events) and not find(events, "revolution.roll") and s.levels[0] == 1
    s = fresh()
    put(s, "dekret_o_mire", "hand", 1)
    fight_with(s, "belyi_general")
    events = GAME.apply(s, 1, {"type": "play", "card": "dekret_o_mire"})
    assert "revolution.cancelled" in keys(events) and s.stage == "end" and s.fight is None
    assert "belyi_general" in s.turn_discard and conserved(s)


def test_non_opponent_then_fight_from_hand_or_second_draw():
    """[SEED] "Если карта вытянутая из колоды хода не была боевой ... может ... вступить бой с
    картой-противником из своей руки. Если ее нет, или игрок не желает ... берет вторую карту ...
    в закрытую"."""
    s = fresh()
    put(s, "gorodovoy", "hand", 0)
    put(s, "class_soldier", "top")
    events = GAME.apply(s, 0, {"type": "draw"})
    assert s.stage == "choose" and "class_soldier" in s.hands[0]
    assert error(s, 0, {"type": "end"}) == "bad_stage"
    GAME.apply(s, 0, {"type": "place", "card": "class_soldier"})
    GAME.apply(s, 0, {"type": "fight", "card": "gorodovoy"})
    assert s.fight["from_hand"] and s.stage == "fight"
    everyone_pass(s)
    assert s.stage == "end" and s.levels[0] == 2
    s = fresh()
    put(s, "class_soldier", "top")
    GAME.apply(s, 0, {"type": "draw"})
    top = s.turn_deck[-1]
    events = GAME.apply(s, 0, {"type": "draw_hidden"})
    assert top in s.hands[0] and s.stage == "end"
    assert find(events, "revolution.got")[0].audience.seats == (0,)
    assert "card" not in find(events, "revolution.drew_hidden")[0].params


def test_face_up_decree_applies_now():
    """[SEED] "Вытянутые в открытую декреты применяются сразу"."""
    s = fresh()
    put(s, "class_peasant", "cls", 1)
    put(s, "class_peasant", "cls", 2)
    s.levels[2] = 9
    put(s, "dekret_o_zemle", "top")
    GAME.apply(s, 0, {"type": "draw"})
    assert s.levels == [1, 2, 9] and "dekret_o_zemle" in s.turn_discard  # never into level 10


def test_hand_limit_at_end_of_turn():
    """[SEED] "игрок может носить в руке не более 5 карт ... должен избавится от них"."""
    s = fresh()
    for cid in ("gorodovoy", "yunker", "pristav", "shpik", "kulak", "nagan"):
        put(s, cid, "hand", 0)
    s.stage = "end"
    assert error(s, 0, {"type": "end"}) == "hand_limit"
    assert GAME.awaiting(s)[0].default["type"] == "discard"
    GAME.apply(s, 0, {"type": "discard", "card": "gorodovoy"})
    assert {"type": "end"} in GAME.legal(s, 0)
    GAME.apply(s, 0, {"type": "end"})
    assert s.active == 1 and s.stage == "open"


def test_equipment_slots_and_weapon_hands():
    """[SEED] "на столе не может быть больше одной карты головного убора, обуви, одежды"; [PROPOSAL]
    "total weapon hands <= 2"."""
    s = fresh()
    for cid in ("furazhka", "papakha", "nagan", "mauser", "maxim"):
        put(s, cid, "hand", 0)
    for cid in ("furazhka", "papakha", "nagan", "mauser"):
        GAME.apply(s, 0, {"type": "equip", "card": cid})
    assert s.gear[0] == ["papakha", "nagan", "mauser"] and s.hands[0] == ["maxim", "furazhka"]
    events = GAME.apply(s, 0, {"type": "equip", "card": "maxim"})
    assert s.gear[0] == ["papakha", "maxim"]
    assert find(events, "revolution.unequipped")[0].params["cards"] == ["nagan", "mauser"]


def test_no_dressing_in_own_fight():
    """[SEED] "«Одеваться» можно в любой момент игры, кроме своего боя или боя в котором вы помогаете"."""
    s = fresh()
    put(s, "nagan", "hand", 0)
    put(s, "shinel", "hand", 2)
    put(s, "class_worker", "hand", 1)
    fight_with(s, "gorodovoy")
    assert error(s, 0, {"type": "equip", "card": "nagan"}) == "not_now"
    GAME.apply(s, 1, {"type": "offer", "share": 0})
    GAME.apply(s, 0, {"type": "accept", "seat": 1})
    assert error(s, 1, {"type": "place", "card": "class_worker"}) == "not_now"
    GAME.apply(s, 2, {"type": "equip", "card": "shinel"})  # somebody else's fight: fine
    assert s.gear[2] == ["shinel"]


def test_selling():
    """[SEED] "За продажу барахла — 1 уровень за каждую 1000 рублей"; "Последний, десятый уровень не
    может быть куплен"; [PROPOSAL] no change given, several items may be combined."""
    s = fresh()
    for cid in ("maxim", "kozhanka", "paek", "mandat_chk"):
        put(s, cid, "hand", 0)
    put(s, "palto", "gear", 0)
    assert error(s, 0, {"type": "sell", "cards": ["maxim"]}) == "too_cheap"
    assert error(s, 0, {"type": "sell", "cards": ["mandat_chk", "maxim"]}) == "no_price"
    events = GAME.apply(s, 0, {"type": "sell", "cards": ["maxim", "kozhanka", "palto"]})  # 1800: 1 level
    assert s.levels[0] == 2 and s.gear[0] == [] and find(events, "revolution.sold")[0].params["roubles"] == 1800
    s.levels[0] = 9
    put(s, "mauser", "hand", 0)
    put(s, "trekhlineyka", "hand", 0)
    assert error(s, 0, {"type": "sell", "cards": ["mauser", "trekhlineyka"]}) == "no_tenth_level"
    assert error(s, 1, {"type": "sell", "cards": ["paek"]}) == "not_your_turn"
    # Буржуй: +200 a card
    s = fresh()
    put(s, "class_bourgeois", "cls", 0)
    for cid in ("mauser", "nagan"):
        put(s, cid, "hand", 0)
    GAME.apply(s, 0, {"type": "sell", "cards": ["mauser", "nagan"]})
    assert s.levels[0] == 2


def test_level_ten_only_from_a_fight():
    """[SEED] "Последний, десятый уровень не может быть куплен, он должен быть получен в бою"."""
    s = fresh()
    s.levels[0] = 9
    put(s, "mandat_delegata", "hand", 0)
    assert error(s, 0, {"type": "play", "card": "mandat_delegata"}) == "no_tenth_level"
    s.levels[0] = 8
    put(s, "samogon", "hand", 0)
    GAME.apply(s, 0, {"type": "play", "card": "samogon"})
    assert s.levels[0] == 9
    put(s, "maxim", "gear", 0)
    fight_with(s, "gorodovoy")
    events = everyone_pass(s)
    assert s.levels[0] == 10 and s.winner == 0 and s.stage == "over"
    assert GAME.outcome(s).reason == "revolution.outcome.winner"
    assert GAME.legal(s, 1) == [] and error(s, 1, {"type": "pass"}) == "game_over"


# ------------------------------------------------------------------------------------ power


def test_revolution_and_the_counter_chain():
    """[SEED] "Карты контрреволюции, контр-контрреволюции и контр-контр-контрреволюции могут быть
    применены только СРАЗУ же после революции"; [PROPOSAL] counter restores the previous party."""
    s = fresh()
    s.ruling = "kadets"
    put(s, "kontrrevolyuciya", "hand", 1)
    put(s, "kontr_kontrrevolyuciya", "hand", 2)
    put(s, "kontr_kontr_kontrrevolyuciya", "hand", 0)
    put(s, "kontrrevolyuciya", "hand", 0)
    assert error(s, 1, {"type": "play", "card": "kontrrevolyuciya"}) == "not_now"
    put(s, "oktyabrskaya", "top")
    GAME.apply(s, 0, {"type": "draw"})
    assert s.ruling == "bolsheviks" and s.stage == "counter"
    assert {a.seat for a in GAME.awaiting(s)} == {0, 1}  # only who holds a level-1 counter
    assert error(s, 0, {"type": "draw_hidden"}) == "not_now"
    assert error(s, 2, {"type": "play", "card": "kontr_kontrrevolyuciya"}) == "not_now"
    GAME.apply(s, 1, {"type": "play", "card": "kontrrevolyuciya"})
    assert s.ruling == "kadets" and s.counter["level"] == 2
    assert {a.seat for a in GAME.awaiting(s)} == {2}
    GAME.apply(s, 2, {"type": "play", "card": "kontr_kontrrevolyuciya"})
    assert s.ruling == "bolsheviks"
    GAME.apply(s, 0, {"type": "play", "card": "kontr_kontr_kontrrevolyuciya"})
    assert s.ruling == "kadets" and s.stage == "choose" and s.counter is None
    # the window closes when everyone passes; later counters are refused
    put(s, "fevralskaya", "hand", 1)
    assert error(s, 1, {"type": "play", "card": "fevralskaya"}) == "no_party"
    put(s, "party_anarchists", "pty", 1)
    GAME.apply(s, 1, {"type": "play", "card": "fevralskaya"})
    assert s.ruling == "anarchists" and s.counter["resume"] == "choose"
    assert {a.seat for a in GAME.awaiting(s)} == {0}  # seat 0 still holds a «Контрреволюция»
    everyone_pass(s)
    assert s.stage == "choose" and error(s, 0, {"type": "play", "card": "kontrrevolyuciya"}) == "not_now"
    assert conserved(s)


def test_revolution_during_a_fight_returns_to_it():
    """[SEED] "Вытянутые в закрытую, в любой момент игры" (revolutions)."""
    s = fresh()
    put(s, "party_bolsheviks", "pty", 0)
    put(s, "party_bolsheviks", "pty", 2)
    put(s, "oktyabrskaya", "hand", 2)
    put(s, "kontrrevolyuciya", "hand", 1)
    fight_with(s, "yunker")  # level 4 against 1
    GAME.apply(s, 2, {"type": "play", "card": "oktyabrskaya"})
    assert s.stage == "counter" and {a.seat for a in GAME.awaiting(s)} == {1}
    GAME.apply(s, 1, {"type": "pass"})  # the only one who could counter: the window closes
    assert s.stage == "fight" and s.passed == [] and E._totals(s) == (3, 4)


def test_ruling_party_arrest():
    """[SEED] "игрок, принадлежащий к правящей партии, во время своего хода, должен выбрать цель
    ареста, сбросить одну карту и кинуть кубик, загадав число ... если число выпавшее на кубике
    больше загаданного числа — арест удается ... в противном случае, сам инициатор ареста попадает
    в тюрьму на такое количество ходов, какое значение выпало на кубике"."""
    s = fresh()
    put(s, "party_bolsheviks", "pty", 0)
    put(s, "paek", "hand", 0)
    put(s, "nagan", "hand", 0)
    assert error(s, 0, {"type": "arrest", "target": 1, "card": "paek", "number": 2}) == "not_ruling"
    s.ruling = "bolsheviks"
    assert error(s, 1, {"type": "arrest", "target": 2, "card": "paek", "number": 2}) == "not_your_turn"
    assert error(s, 0, {"type": "arrest", "target": 0, "card": "paek", "number": 2}) == "bad_target"
    assert error(s, 0, {"type": "arrest", "target": 1, "card": "paek", "number": 7}) == "bad_number"
    s.rng = Dice([5])
    events = GAME.apply(s, 0, {"type": "arrest", "target": 1, "card": "paek", "number": 3})
    assert s.jail == [0, 3, 0] and "paek" in s.loot_discard
    number = find(events, "revolution.arrest_number")[0]
    assert number.audience.seats == (0,) and "number" not in find(events, "revolution.arrest")[0].params
    assert error(s, 0, {"type": "arrest", "target": 2, "card": "nagan", "number": 1}) == "already_arrested"
    # next turn: the target cannot be arrested again (terms never add up); a failed arrest jails the arrester
    s.arrested = False
    assert error(s, 0, {"type": "arrest", "target": 1, "card": "nagan", "number": 1}) == "target_jailed"
    s.rng = Dice([2])
    GAME.apply(s, 0, {"type": "arrest", "target": 2, "card": "nagan", "number": 2})
    assert s.jail == [2, 3, 0] and s.active == 1 and s.stage == "jail"


def test_jail_turns_and_the_three_ways_out():
    """[SEED] "выкинуть на кубике 5 или 6, либо откупиться сдав барахла на сумму не менее 500 рублей
    ... продолжает сидеть до тех пор, пока не откупиться, не выбросит необходимую комбинацию или не
    закончится его срок"."""
    s = fresh()
    s.jail[0] = 2
    s.stage = "jail"
    s.rng = Dice([4, 3])
    assert GAME.awaiting(s)[0].default == {"type": "roll"}
    assert error(s, 0, {"type": "draw"}) == "bad_stage"
    GAME.apply(s, 0, {"type": "roll"})
    assert s.jail[0] == 1 and s.active == 1
    s.active, s.stage = 0, "jail"
    events = GAME.apply(s, 0, {"type": "roll"})
    assert s.jail[0] == 0 and find(events, "revolution.released")[0].params["how"] == "term" and s.active == 1
    # a 5 frees at once and the turn is played
    s.active, s.stage, s.jail[0] = 0, "jail", 3
    s.rng = Dice([5])
    GAME.apply(s, 0, {"type": "roll"})
    assert s.jail[0] == 0 and s.stage == "open" and s.active == 0
    # buyout with >= 500 roubles of loot
    s.stage, s.jail[0] = "jail", 3
    put(s, "nagan", "hand", 0)
    put(s, "shtyk", "gear", 0)
    assert error(s, 0, {"type": "buyout", "cards": ["nagan", "shtyk"]}) == "too_cheap"
    put(s, "browning", "hand", 0)
    GAME.apply(s, 0, {"type": "buyout", "cards": ["nagan", "browning"]})
    assert s.jail[0] == 0 and s.stage == "open"
    # a Пропуск, even on somebody else's turn
    s.jail[2] = 4
    put(s, "propusk", "hand", 2)
    GAME.apply(s, 2, {"type": "play", "card": "propusk"})
    assert s.jail[2] == 0


def test_jailed_player_limits():
    """[SEED] "не может совершать ход, не может помогать в бою ... может и другие карты (в том числе
    начисляющие ему уровень) и, если он принадлежит к партии власти, сажать других игроков в тюрьму"."""
    s = fresh()
    s.jail[0] = 2
    s.stage = "jail"
    put(s, "mandat_delegata", "hand", 0)
    put(s, "party_bolsheviks", "pty", 0)
    put(s, "paek", "hand", 0)
    s.ruling = "bolsheviks"
    GAME.apply(s, 0, {"type": "play", "card": "mandat_delegata"})
    assert s.levels[0] == 2
    s.rng = Dice([6])
    GAME.apply(s, 0, {"type": "arrest", "target": 1, "card": "paek", "number": 1})
    assert s.jail[1] == 1
    assert not any(a["type"] == "draw" for a in GAME.legal(s, 0))


def test_trade_offer_accept_and_conservation():
    """[SEED] equipment "могут держаться в руке и обмениваться"; "Если на карте указана цена — она
    может быть продана, или обменена". An offer from hand and equipment for the other's cards;
    the target is awaited (default: decline) and accepts; the cards change hands at once (equipped
    ones into the new owner's hand); the public events tell counts only, whispers the cards."""
    s = fresh()
    s.stage = "choose"
    put(s, "nagan", "hand", 0)
    put(s, "kozhanka", "gear", 0)
    put(s, "maxim", "gear", 1)
    put(s, "paek", "hand", 1)
    offer = {"type": "trade", "target": 1, "give": ["nagan", "kozhanka"], "take": ["maxim", "paek"]}
    assert {"type": "trade", "target": 1, "give": ["nagan"], "take": ["maxim"]} in GAME.legal(s, 0)
    assert {"type": "trade", "target": 1, "give": ["nagan"], "take": []} in GAME.legal(s, 0)
    events = GAME.apply(s, 0, offer)
    public = find(events, "revolution.trade_offer")[0]
    assert public.params == {"seat": 0, "target_seat": 1, "give_n": 2, "take_n": 2}
    assert find(events, "revolution.trade_terms")[0].audience.seats == (0,)
    asked = find(events, "revolution.trade_asked")[0]
    assert asked.audience.seats == (1,) and asked.params == {"seat": 1, "other_seat": 0, "gives": ["maxim", "paek"],
                                                              "gets": ["nagan", "kozhanka"]}
    waits = GAME.awaiting(s)
    assert [(w.seat, w.kind) for w in waits] == [(0, "turn"), (1, "reaction")]
    assert waits[1].default == {"type": "trade_decline", "seat": 0} and waits[1].default in GAME.legal(s, 1)
    assert {"type": "trade_accept", "seat": 0} in GAME.legal(s, 1)
    assert GAME.view(s, 1)["trades_to_me"] == [{"seat": 0, "give": ["nagan", "kozhanka"], "take": ["maxim", "paek"]}]
    assert GAME.view(s, 0)["my_trade"] == {"target": 1, "give": ["nagan", "kozhanka"], "take": ["maxim", "paek"]}
    spectator = GAME.view(s, SPECTATOR)
    assert spectator["trades"] == [{"seat": 0, "target": 1, "give_n": 2, "take_n": 2}]
    assert "nagan" not in json.dumps(spectator["trades"]) and "trades_to_me" not in spectator
    assert error(s, 0, {"type": "trade", "target": 2, "give": ["nagan"], "take": []}) == "trade_open"
    assert error(s, 2, {"type": "trade_accept", "seat": 0}) == "no_such_offer"
    events = GAME.apply(s, 1, {"type": "trade_accept", "seat": 0})
    assert sorted(s.hands[0]) == ["maxim", "paek"] and sorted(s.hands[1]) == ["kozhanka", "nagan"]
    assert s.gear[0] == [] and s.gear[1] == [] and conserved(s) and not s.trades
    assert find(events, "revolution.traded")[0].params == {"seat": 1, "offerer_seat": 0, "gave_n": 2, "got_n": 2}
    done = find(events, "revolution.trade_done")
    assert [(e.audience.seats, e.params["gave"], e.params["got"]) for e in done] == [
        ((0,), ["nagan", "kozhanka"], ["maxim", "paek"]), ((1,), ["maxim", "paek"], ["nagan", "kozhanka"])]
    for e in events:  # no hand card is named to everyone
        if e.audience.kind == "all":
            assert not {"nagan", "paek"} & set(json.dumps(e.params).replace('"', " ").split()), e
    assert [w.seat for w in GAME.awaiting(s)] == [0]
    # one offer a turn per seat
    assert error(s, 0, {"type": "trade", "target": 1, "give": ["maxim"], "take": []}) == "trade_once"
    assert not any(a["type"] == "trade" for a in GAME.legal(s, 0))


def test_trade_decline_withdraw_gift_and_limits():
    """A gift (nothing asked) may be declined; an offer may be withdrawn; only priced cards, only
    one's own; not to oneself; a card the target lacks makes the offer impossible to accept."""
    s = fresh()
    s.stage = "end"
    put(s, "nagan", "hand", 2)
    put(s, "mandat_chk", "hand", 2)
    put(s, "shinel", "hand", 1)
    assert error(s, 2, {"type": "trade", "target": 0, "give": ["mandat_chk"], "take": []}) == "no_price"
    assert error(s, 2, {"type": "trade", "target": 0, "give": ["nagan"], "take": ["yunker"]}) == "no_price"
    assert error(s, 2, {"type": "trade", "target": 0, "give": ["maxim"], "take": []}) == "no_such_card"
    assert error(s, 2, {"type": "trade", "target": 0, "give": [], "take": ["nagan"]}) == "bad_action"
    assert error(s, 2, {"type": "trade", "target": 2, "give": ["nagan"], "take": []}) == "bad_target"
    events = GAME.apply(s, 2, {"type": "trade", "target": 0, "give": ["nagan"], "take": []})  # a gift
    assert find(events, "revolution.trade_offer")[0].params["take_n"] == 0
    assert [w.seat for w in GAME.awaiting(s)] == [0]  # the active target answers in its turn
    GAME.apply(s, 0, {"type": "trade_decline", "seat": 2})
    assert s.hands[2] == ["nagan", "mandat_chk"] and not s.trades
    assert error(s, 0, {"type": "trade_accept", "seat": 2}) == "no_such_offer"
    # withdraw
    events = GAME.apply(s, 1, {"type": "trade", "target": 2, "give": ["shinel"], "take": ["maxim"]})
    legal = GAME.legal(s, 2)
    assert {"type": "trade_decline", "seat": 1} in legal and {"type": "trade_accept", "seat": 1} not in legal
    assert error(s, 2, {"type": "trade_accept", "seat": 1}) == "no_such_card"  # seat 2 has no Maxim
    assert {"type": "trade_withdraw"} in GAME.legal(s, 1)
    events = GAME.apply(s, 1, {"type": "trade_withdraw"})
    assert find(events, "revolution.trade_withdrawn")[0].params == {"seat": 1, "target_seat": 2}
    assert error(s, 1, {"type": "trade_withdraw"}) == "no_such_offer"
    assert conserved(s)


def test_no_trades_in_fights_or_from_jail_and_offers_close():
    """Not during a fight or a counter-revolution window (an open offer closes when one begins, and
    when the turn changes); a jailed player neither offers nor is offered ("не может совершать ход")."""
    s = fresh()
    put(s, "nagan", "hand", 1)
    put(s, "shtyk", "hand", 2)
    GAME.apply(s, 1, {"type": "trade", "target": 2, "give": ["nagan"], "take": []})
    events = fight_with(s, "yunker")
    assert find(events, "revolution.trade_closed")[0].params == {"seat": 1, "target_seat": 2} and not s.trades
    assert not any(a["type"].startswith("trade") for seat in range(3) for a in GAME.legal(s, seat))
    assert error(s, 2, {"type": "trade", "target": 1, "give": ["shtyk"], "take": []}) == "trade_not_now"
    everyone_pass(s)
    assert s.stage == "end"
    # the turn changes: open offers close
    GAME.apply(s, 2, {"type": "trade", "target": 1, "give": ["shtyk"], "take": []})
    events = GAME.apply(s, 0, {"type": "end"})
    assert "revolution.trade_closed" in keys(events) and not s.trades and s.offered == []
    # a revolution opens the counter window: offers close
    s.stage = "choose"
    GAME.apply(s, 2, {"type": "trade", "target": 0, "give": ["shtyk"], "take": []})
    put(s, "oktyabrskaya", "hand", 1)
    put(s, "kontrrevolyuciya", "hand", 0)  # someone who could counter: the window stays open
    events = GAME.apply(s, 1, {"type": "play", "card": "oktyabrskaya"})
    assert s.stage == "counter" and "revolution.trade_closed" in keys(events) and not s.trades
    everyone_pass(s)
    # jail
    s.jail[2] = 2
    assert error(s, 2, {"type": "trade", "target": 0, "give": ["shtyk"], "take": []}) == "trade_jailed"
    assert error(s, 1, {"type": "trade", "target": 2, "give": ["nagan"], "take": []}) == "trade_jailed"
    assert not any(a["type"] == "trade" and a["target"] == 2 for a in GAME.legal(s, 1))
    assert not any(a["type"] == "trade" for a in GAME.legal(s, 2))
    s.jail[2] = 0
    s.offered = []
    GAME.apply(s, 2, {"type": "trade", "target": 0, "give": ["shtyk"], "take": []})
    s.jail[0] = 1  # jailed while the offer is open: it can only be declined
    assert GAME.legal(s, 0).count({"type": "trade_decline", "seat": 2}) == 1
    assert {"type": "trade_accept", "seat": 2} not in GAME.legal(s, 0)
    assert error(s, 0, {"type": "trade_accept", "seat": 2}) == "trade_jailed"
    assert conserved(s)


def test_decrees_and_mandates_effects():
    """Deck cards: Декрет о национализации, о хлебе, об уничтожении сословий, об амнистии; Мандат
    наркома; Мандат на реквизицию."""
    s = fresh()
    put(s, "class_bourgeois", "cls", 1)
    s.levels[1] = 1
    s.levels[2] = 3
    put(s, "dekret_nacionalizacii", "hand", 0)
    GAME.apply(s, 0, {"type": "play", "card": "dekret_nacionalizacii"})
    assert s.levels[1] == 1  # never below 1
    put(s, "dekret_o_khlebe", "hand", 0)
    GAME.apply(s, 0, {"type": "play", "card": "dekret_o_khlebe"})
    assert [len(h) for h in s.hands] == [1, 1, 1]
    put(s, "dekret_o_soslovijah", "hand", 0)
    GAME.apply(s, 0, {"type": "play", "card": "dekret_o_soslovijah"})
    assert s.cls == [None, None, None]
    s.jail[1] = 3
    s.jail[2] = 1
    put(s, "dekret_ob_amnistii", "hand", 0)
    GAME.apply(s, 0, {"type": "play", "card": "dekret_ob_amnistii"})
    assert s.jail == [0, 0, 0]
    put(s, "mandat_narkoma", "hand", 0)
    before = len(s.hands[0])
    GAME.apply(s, 0, {"type": "play", "card": "mandat_narkoma"})
    assert len(s.hands[0]) == before - 1 + 2
    put(s, "maxim", "gear", 2)
    put(s, "mandat_rekvizicii", "hand", 0)
    assert error(s, 0, {"type": "play", "card": "mandat_rekvizicii", "target": 2, "item": "nagan"}) == "no_item"
    GAME.apply(s, 0, {"type": "play", "card": "mandat_rekvizicii", "target": 2, "item": "maxim"})
    assert "maxim" in s.hands[0] and s.gear[2] == []
    assert conserved(s)


def test_stronger_vs_and_class_abilities():
    """Deck: «Казачий разъезд» +3 vs Рабочий ([PROPOSAL] example); Рабочий +2 when helping."""
    s = fresh()
    put(s, "class_worker", "cls", 1)
    s.levels[0] = 5
    fight_with(s, "kazaki")
    assert E._totals(s) == (5, 8)
    GAME.apply(s, 1, {"type": "offer", "share": 2})
    put(s, "rech_sovety", "hand", 0)  # a card to play keeps the fight open after the accept
    GAME.apply(s, 0, {"type": "accept", "seat": 1})
    assert E._totals(s) == (5 + 1 + 2, 8 + 3)


def test_views_hide_hands():
    """Views: a seat sees its own hand only; MASTER sees all; the public part is the same."""
    s = GAME.new(3, {}, 5)
    v0, v1, spec, master = (GAME.view(s, x) for x in (0, 1, SPECTATOR, MASTER))
    assert v0["hand"] == s.hands[0] and "hands" not in v0 and "hand" not in spec
    assert master["hands"] == s.hands
    own = ("me", "hand", "my_trade", "trades_to_me")
    public = {k: v for k, v in v0.items() if k not in own}
    assert public == {k: v for k, v in v1.items() if k not in own} == spec
    assert v0["my_trade"] is None and v0["trades_to_me"] == [] and "my_trade" not in spec


def test_dice_are_seeded_and_replays_exact():
    """"Dice come from the game's seeded generator": the same seed and actions replay exactly."""
    from games.revolution import bot

    def play(seed):
        s = GAME.new(4, {}, seed)
        r = random.Random(seed)
        log = []
        while s.stage != "over":
            a = GAME.awaiting(s)[0]
            action = bot.bot_action(GAME.view(s, a.seat), GAME.legal(s, a.seat), r, "normal")
            log.append([(e.key, e.params) for e in GAME.apply(s, a.seat, action)])
        return log
    assert play(11) == play(11)


# ------------------------------------------------------------------------------------ the deck


def test_default_deck_every_effect_known_and_counts():
    """Every card's effects come from the engine's vocabulary; counts per category follow the plan."""
    counts = DECK.counts()
    msg = "counts per category: " + ", ".join(f"{k}={v}" for k, v in counts.items()) + f"; total={DECK.total}"
    expected = {"opponent": 40, "mandate": 10, "decree": 10, "revolution": 10, "class": 8, "party": 8,
                "headgear": 8, "footwear": 6, "clothing": 8, "weapon": 14, "speech": 12, "loot": 16}
    assert counts == expected, msg
    assert DECK.total == 150, msg
    assert set(D.EFFECTS) == set(E.IMPLEMENTED), msg
    used = set()
    for card in DECK.cards.values():
        for e in card.effects:
            assert e["effect"] in E.IMPLEMENTED, (card.id, e)
            used.add(e["effect"])
        for lang in ("ru", "en"):
            assert card.name[lang].strip() and card.text[lang].strip(), (card.id, lang)
        if card.category == "speech":
            assert card.speech["ru"] and card.speech["en"]
            assert E.speech_matches(card, card.speech["ru"]) and E.speech_matches(card, card.speech["en"])
    assert used == set(E.IMPLEMENTED), f"effects no card uses: {set(E.IMPLEMENTED) - used}; {msg}"
    assert set(DECK.classes) == {"worker", "peasant", "soldier", "sailor", "intelligent", "bourgeois"}
    assert len(DECK.parties) == 7
    print(msg)


def _bad(mutate):
    data = json.loads((D.DECK_DIR / "default.json").read_text(encoding="utf-8"))
    mutate(data)
    with pytest.raises(D.DeckError) as info:
        D.parse(data, "broken")
    return info.value


def _card_in(data, cid):
    return next(c for c in data["cards"] if c["id"] == cid)


@pytest.mark.parametrize("cid, mutate, words", [
    ("nagan", lambda c: c["effects"].append({"effect": "teleport"}), "unknown effect 'teleport'"),
    ("nagan", lambda c: c["effects"].pop(), "exactly one 'hands'"),
    ("nagan", lambda c: c["text"].pop("en"), "'text' has no en text"),
    ("nagan", lambda c: c.update(count=0), "count must be an integer 1..20"),
    ("gorodovoy", lambda c: c["effects"].__setitem__(0, {"effect": "opponent", "level": 30, "levels": 1, "loot": 1}),
     "level must be an integer 1..20"),
    ("gorodovoy", lambda c: c["effects"].pop(), "needs at least one penalty_"),
    ("kazaki", lambda c: c["effects"].__setitem__(1, {"effect": "stronger_vs", "class": "wizard", "n": 3}),
     "class 'wizard', which no card defines"),
    ("paek", lambda c: c.update(effects=[]), "no flavour-only cards"),
    ("paek", lambda c: c["effects"].append({"effect": "gain_level", "n": 1}), "mixes fight-only effects"),
    ("rech_grab", lambda c: c.pop("speech"), "'speech' must be an object"),
    ("class_worker", lambda c: c["effects"].append({"effect": "attack", "n": 1, "bonus": 2}), "unknown parameter 'bonus'"),
    ("party_kadets", lambda c: c.update(category="tank"), "unknown category 'tank'"),
    ("mandat_chk", lambda c: c["effects"].__setitem__(0, {"effect": "fight_bonus", "n": 4, "side": "left"}),
     "side must be one of"),
])
def test_bad_deck_names_card_and_problem(cid, mutate, words):
    """"a bad deck file is refused with a message naming the card and the problem"."""
    exc = _bad(lambda data: mutate(_card_in(data, cid)))
    assert exc.params["card"] == cid and words in exc.params["problem"], str(exc)
    assert f"card {cid!r}" in str(exc) and exc.key == "revolution.error.bad_deck"


def test_bad_deck_file_level_problems(tmp_path, monkeypatch):
    """Duplicate ids, a deck too small, an unreadable file."""
    exc = _bad(lambda data: data["cards"].append(copy.deepcopy(_card_in(data, "nagan"))))
    assert exc.params["card"] == "nagan" and "duplicate" in exc.params["problem"]
    exc = _bad(lambda data: data.update(cards=[c for c in data["cards"] if c["category"] != "speech"
                                               and c["category"] not in ("loot", "weapon", "clothing")]))
    assert "loot deck needs at least" in exc.params["problem"]
    monkeypatch.setattr(D, "DECK_DIR", tmp_path)
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(D.DeckError) as info:
        D.load("broken")
    assert "not a readable JSON file" in str(info.value)


def test_buyout_without_cards_pays_the_cheapest_set_that_suffices():
    """[SEED] "откупиться сдав барахла на сумму не менее 500 рублей": a buyout with no cards named
    hands over the cheapest loot worth 500 or more (exact subset sum), the fewest cards on a tie,
    and pays from the hand before stripping equipped gear (issue 14: it paid 800 for 500)."""
    s = fresh()
    s.stage, s.jail[0] = "jail", 3
    for cid in ("maxim", "nagan", "granata"):  # 800, 300, 200: the Maxim alone was paid before
        put(s, cid, "hand", 0)

    def offered():
        return [a["cards"] for a in GAME.legal(s, 0) if a["type"] == "buyout"]

    assert sorted(offered()[0]) == ["granata", "nagan"]
    put(s, "mauser", "gear", 0)  # 500 in one card beats 300 + 200
    assert offered() == [["mauser"]]
    put(s, "burka", "hand", 0)  # 500 again, but from the hand
    assert offered() == [["burka"]]
    s.hands[0], s.gear[0] = ["shashka", "shashka", "patrony"], []  # 400+400, 400+300: 700 wins
    assert sorted(offered()[0]) == ["patrony", "shashka"]
    s.hands[0] = ["shtyk", "kepka", "paek"]  # 300 in all: no buyout offered
    assert offered() == []


def test_cheapest_covering_is_an_exact_minimum():
    """Against every subset of random priced hands: the smallest total >= need, then fewest cards."""
    from itertools import combinations

    rng = random.Random(14)
    for _ in range(300):
        items = [(f"c{i}", rng.choice(["hand", "gear"]), rng.choice([100, 200, 300, 400, 500, 700, 800]))
                 for i in range(rng.randint(0, 8))]
        need = rng.choice([300, 500, 900])
        subsets = [combo for k in range(len(items) + 1) for combo in combinations(items, k)
                   if sum(p for *_, p in combo) >= need]
        got = E.cheapest_covering(items, need)
        if not subsets:
            assert got is None
            continue
        best = min((sum(p for *_, p in c), len(c)) for c in subsets)
        picked = [it for it in items if it[0] in got]
        assert len(picked) == len(got) and (sum(p for *_, p in picked), len(picked)) == best
