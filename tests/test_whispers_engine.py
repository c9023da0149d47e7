"""«Шептуны» engine: one test per rule of docs/whispers-protocol.md, each on a set position and
each quoting the seed sentence (seed 002, Russian) it checks; then options, views, replays.

Positions are built with ``new`` and then fields set directly (hands, statuses, placed cards,
the dealer) through the helpers below; the rest of the deck goes back into the deck, so every
card is still accounted for."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games.base import MASTER, SPECTATOR, Audience, Outcome, RuleError
from games.whispers import GAME, WhispersState
from games.whispers import engine as E

EVERYONE = Audience.everyone()
D, C = "district", "capitol"
DEFAULT_COUNTS = [10, 9, 8, 7, 5]


# ----------------------------------------------------------------------------------- helpers


def position(sides=(D, D, C, C, C), hands=None, status=None, defeated=(), revealed=(), placed=None,
             dealer=0, options=None, seed=1, round_no=1, returned=(), step=None, events=None) -> WhispersState:
    """A round just dealt: ``hands`` {seat: [ranks]} (others empty), ``status`` {seat: rank}
    (a status above Ignored lies on the role card as its card), ``defeated`` and ``revealed``
    seats, cards already placed {target: [[placer, rank], ...]}, the dealer. Whatever the
    position does not use is the deck. Then the game goes on as after a deal (pass or place);
    or, with ``step``, the placement goes on from that turn (lap 1 starts at the dealer), with
    the ``returned`` seats as having returned earlier this round. Events go to ``events``."""
    n = len(sides)
    opts = dict(options or {})
    if n < 5 and "peacekeepers_from" not in opts:
        opts["peacekeepers_from"] = sum(side == D for side in sides)
    s = GAME.new(n, opts, seed)
    s.sides = list(sides)
    s.district_total = s.sides.count(D)
    s.capitol_total = n - s.district_total
    s.dealer = dealer
    s.round = round_no
    s.status = [1] * n
    s.markers = [None] * n
    for seat, rank in (status or {}).items():
        s.status[seat] = rank
        s.markers[seat] = rank if rank > 1 else None
    s.defeated = [seat in defeated for seat in range(n)]
    s.revealed = [seat in defeated or seat in revealed for seat in range(n)]
    for seat in defeated:
        s.status[seat], s.markers[seat] = 5, None
    s.hands = [sorted((hands or {}).get(seat, [])) for seat in range(n)]
    s.face_up = [h[0] if h and not s.defeated[i] else None for i, h in enumerate(s.hands)]
    s.placed = [[list(p) for p in (placed or {}).get(seat, [])] for seat in range(n)]
    s.placements = [[p[0], t, p[1]] for t in range(n) for p in s.placed[t]]
    s.last_reveal = []
    left = Counter({rank: count for rank, count in zip(E.RANKS, s.deck_counts)})
    used = Counter(c for h in s.hands for c in h) + Counter(p[1] for pl in s.placed for p in pl)
    used += Counter(m for m in s.markers if m is not None)
    left.subtract(used)
    assert all(v >= 0 for v in left.values()), "the position uses more cards than the deck has"
    s.deck = [rank for rank in E.RANKS for _ in range(left[rank])]
    s.discard = []
    s.returned = [seat in returned for seat in range(n)]
    s.voided = [0] * n
    if step is None:
        E._after_deal(s, [] if events is None else events)
    else:
        s.pass_queue = []
        s.order = [seat for seat in E._from_dealer(s) if not s.defeated[seat]]
        s.step = step
        E._next_turn(s, [] if events is None else events)
    assert s.count_cards() == s.total
    return s


def place(s: WhispersState, card: int, target: int) -> list:
    """The awaited seat places ``card`` on ``target``."""
    return GAME.apply(s, s.turn, {"type": "place", "card": card, "target": target})


def keys(events) -> list[str]:
    return [e.key for e in events]


def find(events, key: str) -> list[dict]:
    return [e.params for e in events if e.key == key]


def raises(key: str, s: WhispersState, seat: int, action, **params) -> None:
    before = GAME.view(s, MASTER)
    with pytest.raises(RuleError) as info:
        GAME.apply(s, seat, action)
    assert info.value.key == key, info.value.key
    assert info.value.params == params
    assert GAME.view(s, MASTER) == before  # a refused action changes nothing


def full_deck() -> Counter:
    return Counter({rank: count for rank, count in zip(E.RANKS, DEFAULT_COUNTS)})


def all_cards(s: WhispersState) -> Counter:
    cards = Counter(s.deck) + Counter(s.discard) + Counter(c for h in s.hands for c in h)
    cards += Counter(p[1] for pl in s.placed for p in pl) + Counter(m for m in s.markers if m is not None)
    if s.passed_card is not None:
        cards[s.passed_card] += 1
    return cards


# ----------------------------------------------------------------------------------- setup


def test_options():
    defaults = {"deck": "10,9,8,7,5", "district": "auto", "return_rule": "all", "peacekeepers": 3,
                "turn": 90, "rounds": 200}
    assert GAME.default_options == defaults
    assert GAME.validate_options(None) == defaults
    assert GAME.validate_options({"deck": "12, 10, 8, 6, 4", "district": "3", "return_rule": "ONE",
                                  "peacekeepers": "4", "turn": "30", "rounds": " 50 "}) == {
        "deck": "12,10,8,6,4", "district": 3, "return_rule": "one", "peacekeepers": 4, "turn": 30, "rounds": 50}
    assert GAME.validate_options({"deck": [8, 8, 8, 7, 5]})["deck"] == "8,8,8,7,5"
    assert GAME.validate_options({"district": "Auto"})["district"] == "auto"
    # peacekeepers_from is kept as stored by the server (an int), never typed by players
    assert GAME.validate_options({"peacekeepers_from": 3})["peacekeepers_from"] == 3
    assert "peacekeepers_from" not in GAME.validate_options({})
    for name, bad in [("deck", "10,9,8,7"), ("deck", "5,5,5,5,5"), ("deck", "10,9,8,7,0"), ("deck", "a,b,c,d,e"),
                      ("deck", 39), ("deck", "100,9,8,7,5"), ("district", 0), ("district", "12"),
                      ("district", "two"), ("return_rule", "some"), ("peacekeepers", 2), ("peacekeepers", "5"),
                      ("turn", 9), ("turn", "86401"), ("turn", True), ("rounds", 9), ("rounds", 1001),
                      ("peacekeepers_from", 0), ("peacekeepers_from", "x"), ("speed", 1)]:
        with pytest.raises(RuleError) as info:
            GAME.validate_options({name: bad})
        assert info.value.key == "whispers.error.bad_option"
        assert info.value.params == {"name": name, "value": bad}
    # a District override too big for the table is capped at one Capitol citizen (decision)
    assert GAME.new(5, {"district": 5}, 1).sides.count(C) == 1
    for seats in (1, 13, True):
        with pytest.raises(RuleError) as info:
            GAME.new(seats, {}, 1)
        assert info.value.key == "whispers.error.bad_option"


def test_role_table_per_player_count():
    """«Раздающий формирует из этих двух колод третью, исходя из количества игроков, в соответствии
    с таблицей.» (the table: ../shared/rules/whispers.md §1.4)"""
    table = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4, 11: 4, 12: 5}
    for players, district in table.items():
        for seed in range(5):
            s = GAME.new(players, {}, seed)
            assert s.sides.count(D) == district and s.sides.count(C) == players - district
            assert (s.district_total, s.capitol_total) == (district, players - district)
            start = GAME.start_events(s)[0]
            assert start.key == "whispers.start" and start.audience == EVERYONE
            assert start.params == {"players": players, "district": district, "capitol": players - district}
    assert GAME.new(7, {"district": 2}, 1).sides.count(D) == 2
    # the roles are shuffled by the seed: not always the same seats
    assert len({tuple(GAME.new(8, {}, seed).sides) for seed in range(20)}) > 5


def test_too_few_seats_need_the_peacekeepers():
    """«Правила игры для 5-12 игроков.» / «(Альтернативная версия – для 2-4 игроков)»"""
    assert (GAME.min_players, GAME.max_players) == (2, 12)
    for seats in (2, 3, 4):
        with pytest.raises(RuleError) as info:
            GAME.new(seats, {}, 1)
        assert info.value.key == "whispers.error.too_few"
        assert GAME.start_plan(GAME.validate_options({}), seats) == (3, {"peacekeepers_from": seats})
        assert GAME.start_plan(GAME.validate_options({"peacekeepers": 4}), seats) == (4, {"peacekeepers_from": seats})
    for seats in range(5, 13):
        assert GAME.start_plan(GAME.validate_options({}), seats) == (0, {})
    with pytest.raises(RuleError) as info:
        GAME.new(5, {"peacekeepers_from": 5}, 1)
    assert info.value.key == "whispers.error.bad_option"


def test_coop_variant():
    """«(Альтернативная версия – для 2-4 игроков)»: humans are District and know each other, the
    Peacekeepers (seats from peacekeepers_from) are Capitol (§1.6)."""
    options = GAME.validate_options({"peacekeepers": 3})
    extra, updates = GAME.start_plan(options, 3)
    s = GAME.new(3 + extra, {**options, **updates}, 7)
    assert s.sides == [D, D, D, C, C, C] and s.coop and s.peacekeepers_from == 3
    events = GAME.start_events(s)
    assert events[0].key == "whispers.start_coop" and events[0].params == {"players": 6, "peacekeepers": 3}
    assert [(e.audience, e.params) for e in events if e.key == "whispers.side"] == [
        (Audience.only(seat), {"side": side}) for seat, side in enumerate(s.sides)]
    assert [(e.audience, e.params) for e in events if e.key == "whispers.team"] == [
        (Audience.only(seat), {"seats": [0, 1, 2]}) for seat in (0, 1, 2)]
    for seat in range(3):
        assert GAME.view(s, seat)["team"] == [0, 1, 2]
    for seat in range(3, 6):
        view = GAME.view(s, seat)
        assert view["side"] == C and "team" not in view
    view = GAME.view(s, SPECTATOR)
    assert view["coop"] is True and view["peacekeepers_from"] == 3
    # the same win conditions: two Peacekeepers more defeated than people -> the District wins
    s = position(sides=(D, D, C, C, C), hands={0: [5], 1: [1]}, status={2: 3}, defeated=(3,),
                 options={"peacekeepers_from": 2})
    assert s.coop
    events = place(s, 5, 2)
    events += place(s, 1, 0)
    assert find(events, "whispers.winner") == [
        {"side": D, "seats": [0, 1], "reason": "capitol_defeated", "capitol_defeated": 2, "district_defeated": 0}]


def test_start_events_tell_each_seat_its_side_and_the_district_its_team():
    """«Все игроки смотрят, какая карта им досталась, не показывая ее остальным игрокам.» /
    «Таким образом, Граждане Дистриктов знают друг друга, а Граждане Капитолия – нет.»"""
    s = GAME.new(7, {}, 3)
    events = GAME.start_events(s)
    district = [seat for seat in range(7) if s.sides[seat] == D]
    sides = [e for e in events if e.key == "whispers.side"]
    assert [(e.audience.seats, e.params["side"]) for e in sides] == [((seat,), s.sides[seat]) for seat in range(7)]
    teams = [e for e in events if e.key == "whispers.team"]
    assert [e.audience.seats for e in teams] == [(seat,) for seat in district]
    assert all(e.params == {"seats": district} for e in teams)
    assert GAME.start_events(s) == events  # start_events only reads the state


# ----------------------------------------------------------------------------------- the deal


def test_deal_one_face_up_one_face_down():
    """«ведущий перемешивает карты Статуса (Status card) и раздает по две каждому игроку – одну
    лицом вверх и одну лицом вниз.»"""
    s = GAME.new(6, {}, 11)
    events = GAME.start_events(s)
    order = [(s.dealer + i) % 6 for i in range(6)]
    assert find(events, "whispers.round") == [{"round": 1, "seat": s.dealer}]
    assert find(events, "whispers.face_up") == [{"cards": [[seat, s.face_up[seat]] for seat in order]}]
    hands = [e for e in events if e.key == "whispers.hand"]
    assert [e.audience for e in hands] == [Audience.only(seat) for seat in order]
    for e in hands:
        seat = e.audience.seats[0]
        assert e.params == {"cards": sorted(s.hands[seat])} and len(s.hands[seat]) == 2
        assert s.face_up[seat] in s.hands[seat]
    assert len(s.deck) == 39 - 12 and s.count_cards() == 39
    assert all_cards(s) == full_deck()
    view = GAME.view(s, order[1])
    assert view["face_up"] == s.face_up and view["hand"] == sorted(s.hands[order[1]])


def test_defeated_district_get_no_cards_defeated_capitol_one_face_down():
    """«Побежденные Граждане Дистриктов больше не получают карт Статуса в следующих раундах.» /
    «Побежденные Граждане Капитолия раздается по одной карте Статуса лицом вниз в каждом раунде.»"""
    s = position(sides=(D, D, D, C, C, C, C), hands={0: [1], 1: [1]}, defeated=(2, 3), status={4: 1})
    events = place(s, 1, 4)
    events += place(s, 1, 5)
    # the round ends and the next one is dealt
    assert find(events, "whispers.round") == [{"round": 2, "seat": 1}]
    assert s.hands[2] == [] and s.face_up[2] is None
    assert len(s.hands[3]) == 1 and s.face_up[3] is None
    dealt = [e for e in events if e.key == "whispers.dealt_defeated"]
    assert [(e.audience, e.params) for e in dealt] == [(Audience.only(3), {"card": s.hands[3][0]})]
    assert all(e.audience.seats != (2,) for e in events if e.key == "whispers.hand")
    assert sorted(s.face_up[seat] is not None for seat in range(7)) == [False, False] + [True] * 5
    assert s.stage == "pass" and s.turn == 3 and s.passer == 3


def test_defeated_capitol_may_discard_or_pass_and_the_target_swaps():
    """«Этот игрок может, посмотрев доставшуюся карту, сбросить ее в центр стола, либо передать ее
    другому игроку лицом вниз. Если карта передается другому игроку, этот игрок должен взять эту
    карту взамен одной из своих, сбросив одну из своих карт по выбору на центр стола.»"""
    s = position(sides=(D, D, C, C, C, C), hands={0: [1, 3], 1: [2, 4], 2: [5], 3: [4], 4: [1, 1], 5: [2, 2]},
                 defeated=(2, 3), dealer=1)
    # in seat order from the dealer: seat 2, then seat 3
    assert s.stage == "pass" and s.turn == 2
    assert GAME.legal(s, 2) == [{"type": "pass", "target": t} for t in (4, 5, 0, 1)] + [{"type": "discard_pass"}]
    assert GAME.awaiting(s)[0].default == {"type": "discard_pass"}
    assert GAME.legal(s, 3) == [] and GAME.legal(s, 0) == []
    raises("whispers.error.self_target", s, 2, {"type": "pass", "target": 2})
    raises("whispers.error.target_defeated", s, 2, {"type": "pass", "target": 3})
    raises("whispers.error.bad_target", s, 2, {"type": "pass", "target": 9})
    raises("whispers.error.not_your_turn", s, 3, {"type": "discard_pass"})
    raises("whispers.error.bad_action", s, 2, {"type": "place", "card": 5, "target": 0})
    events = GAME.apply(s, 2, {"type": "pass", "target": 0})
    assert [(e.key, e.audience, e.params) for e in events] == [
        ("whispers.passed", EVERYONE, {"seat": 2, "target_seat": 0}),
        ("whispers.passed_to_you", Audience.only(0), {"seat": 2, "card": 5})]
    assert s.stage == "swap" and s.turn == 0 and s.passer == 2
    assert GAME.legal(s, 0) == [{"type": "swap", "card": 1}, {"type": "swap", "card": 3}]
    assert GAME.awaiting(s)[0].default == {"type": "swap", "card": 1}
    assert GAME.view(s, 0)["passed_card"] == 5 and GAME.view(s, 0)["hand"] == [1, 3]
    assert "passed_card" not in GAME.view(s, 1) and "passed_card" not in GAME.view(s, SPECTATOR)
    raises("whispers.error.no_such_card", s, 0, {"type": "swap", "card": 5})
    discard = len(s.discard)
    events = GAME.apply(s, 0, {"type": "swap", "card": 3})
    assert [(e.key, e.params) for e in events] == [("whispers.swapped", {"seat": 0})]  # the rank is not told
    assert sorted(s.hands[0]) == [1, 5] and len(s.discard) == discard + 1 and s.discard[-1] == 3
    assert s.stage == "pass" and s.turn == 3
    events = GAME.apply(s, 3, {"type": "discard_pass"})
    assert [(e.key, e.params) for e in events] == [("whispers.pass_discarded", {"seat": 3})]
    assert s.hands[3] == [] and s.stage == "place" and s.turn == 1 and s.passer is None
    assert s.count_cards() == 39


# ----------------------------------------------------------------------------------- placement


def test_placement_two_laps_from_the_dealer():
    """«Далее, ведущий выбирает одного из игроков и кладет одну из своих карт Статуса перед ним,
    рядом с его картой персонажа, лицом вниз. Затем, игрок слева от ведущего делает то же самое.
    Так должно пройти два круга»"""
    s = position(hands={seat: [1, 2] for seat in range(5)}, dealer=3)
    turns = []
    while s.stage == "place" and s.round == 1:
        turns.append((s.turn, s.lap))
        seat = s.turn
        GAME.apply(s, seat, GAME.legal(s, seat)[-1])
    assert turns == [(3, 1), (4, 1), (0, 1), (1, 1), (2, 1), (3, 2), (4, 2), (0, 2), (1, 2), (2, 2)]


def test_placement_events_hide_the_rank():
    """«кладет одну из своих карт Статуса перед ним ... лицом вниз»"""
    s = position(hands={0: [3, 4], 1: [1, 2]})
    assert GAME.legal(s, 0) == [{"type": "place", "card": c, "target": t} for c in (3, 4) for t in (1, 2, 3, 4)]
    assert GAME.awaiting(s)[0].default == {"type": "place", "card": 3, "target": 1}
    events = place(s, 4, 2)
    assert [(e.key, e.audience, e.params) for e in events] == [
        ("whispers.placed", EVERYONE, {"seat": 0, "target_seat": 2}),
        ("whispers.you_placed", Audience.only(0), {"card": 4, "target_seat": 2})]
    assert GAME.view(s, 0)["my_placements"] == [[2, 4]]
    assert GAME.view(s, 1)["my_placements"] == [] and GAME.view(s, 1)["placed"] == [0, 0, 1, 0, 0]
    assert "my_placements" not in GAME.view(s, SPECTATOR)


def test_rule_1_never_on_self():
    """«1. Игрок не может положить карту Статуса перед собой, и он обязан положить карту перед
    другим игроком.»"""
    s = position(hands={0: [3, 4], 1: [1, 2]})
    assert all(a["target"] != 0 for a in GAME.legal(s, 0))
    raises("whispers.error.self_target", s, 0, {"type": "place", "card": 3, "target": 0})
    raises("whispers.error.not_your_turn", s, 1, {"type": "place", "card": 1, "target": 0})
    raises("whispers.error.no_such_card", s, 0, {"type": "place", "card": 5, "target": 1})
    raises("whispers.error.bad_target", s, 0, {"type": "place", "card": 3, "target": 5})
    raises("whispers.error.bad_target", s, 0, {"type": "place", "card": 3, "target": "1"})
    raises("whispers.error.bad_action", s, 0, {"type": "pass", "target": 1})
    raises("whispers.error.bad_action", s, 0, "place")
    s.returned[2] = True  # a player who has returned this round still takes cards (rule 3, revision 2)
    assert {a["target"] for a in GAME.legal(s, 0)} == {1, 2, 3, 4}
    s = position(hands={0: [3, 4], 1: [1, 2]}, options={"rules_rev": 1})
    s.returned[2] = True  # revision 1 (tables started before it): nobody places on them
    raises("whispers.error.target_returned", s, 0, {"type": "place", "card": 3, "target": 2})
    s = position(hands={0: [3, 4]}, defeated=(3,))
    raises("whispers.error.target_defeated", s, 0, {"type": "place", "card": 3, "target": 3})
    assert {a["target"] for a in GAME.legal(s, 0)} == {1, 2, 4}


def test_rule_2_never_on_a_player_with_two_cards():
    """«2. Игрок не может положить карту перед игроком, если перед ним уже лежат две карты.»"""
    s = position(hands={0: [3], 1: [2], 2: [4]})
    place(s, 3, 4)
    place(s, 2, 4)
    assert s.turn == 2 and all(a["target"] != 4 for a in GAME.legal(s, 2))
    raises("whispers.error.target_full", s, 2, {"type": "place", "card": 4, "target": 4})


@pytest.mark.parametrize("rule,back", [("all", 2), ("one", 1)])
def test_rule_3_the_last_player_returns(rule, back):
    """«3. Если последний игрок не может выложить вторую карту статуса из своей руки (потому что
    перед остальными игроками уже лежат по две карты), он возвращает эту карту в центр стола, и
    так же возвращает карту статуса, положенную перед ним. Статус этого игрока не изменится в этом
    раунде.» (return_rule=all: every card placed on them; one: the last placed)"""
    full = {t: [[t + 1, 1], [t + 2, 1]] for t in (0, 1, 2)}
    s = position(hands={2: [3], 4: [2]}, status={4: 3}, options={"return_rule": rule},
                 placed={**full, 3: [[0, 2]], 4: [[0, 5], [1, 4]]})
    assert s.turn == 2 and GAME.legal(s, 2) == [{"type": "place", "card": 3, "target": 3}]
    events = place(s, 3, 3)
    # seat 4 has a card but every other player has two: it returns on its own
    assert find(events, "whispers.returned") == [{"seat": 4, "n": back}]
    assert keys(events).index("whispers.returned") < keys(events).index("whispers.reveal.none")
    reveal = find(events, "whispers.reveal.none")
    assert reveal == [{"seat": 4, "cards": [], "status": 3, "prev": 3}]  # nothing of it is shown
    assert s.status[4] == 3  # the status does not change this round
    last = GAME.view(s, SPECTATOR)["last_reveal"]
    assert {"seat": 4, "cards": [], "status": 3, "change": "none"} in last
    # its card, and the cards placed on it, went to the centre (then into the next deal)
    assert s.round == 2 and s.discard == []
    assert s.count_cards() == 39 and all_cards(s) == full_deck()


def test_rule_3_only_the_stuck_player_returns():
    """«3. Если последний игрок не может выложить вторую карту ... он возвращает эту карту ... и так
    же возвращает карту статуса, положенную перед ним. Статус этого игрока не изменится»: rule 3
    is about the one player who is stuck (whispers.md §1.5 rule 3, Decision of 2026-12-01). Whoever
    places after them must place on them (rule 1: «он обязан положить карту перед другим
    игроком»), and that card counts; their own cards are never returned because of another."""
    full = {t: [[t + 1, 1], [t + 2, 1]] for t in (0, 1, 2)}
    s = position(hands={3: [1], 4: [2], 0: [4]}, placed={**full, 3: [[0, 2], [1, 2]], 4: [[2, 3]]}, dealer=3)
    # seat 3 must place on 4 (the only one not full); then 4 cannot place: it returns its card and
    # the two in front of it; seat 0 must then place on 4, and keeps its own two cards.
    events = place(s, 1, 4)
    assert find(events, "whispers.returned_open") == [{"seat": 4, "n": 2}]
    assert "whispers.returned" not in keys(events)
    assert s.turn == 0 and GAME.legal(s, 0) == [{"type": "place", "card": 4, "target": 4}]
    events = place(s, 4, 4)
    assert not [k for k in keys(events) if k.startswith("whispers.returned")]
    reveals = {e.params["seat"]: (e.key, e.params["cards"], e.params["status"]) for e in events
               if e.key.startswith("whispers.reveal.")}
    assert reveals[4] == ("whispers.reveal.higher", [4], 4)  # the card placed after the return counts
    assert reveals[0] == ("whispers.reveal.equal", [1, 1], 1)  # seat 0's own cards are revealed
    assert reveals[3] == ("whispers.reveal.equal", [2, 2], 2)
    assert s.status[4] == 4 and s.round == 2
    assert s.count_cards() == 39 and all_cards(s) == full_deck()


def test_rule_3_first_revision_replays_as_played():
    """A table started before the revision (``rules_rev=1``, pinned by ``restored_options`` for a
    stored table without it) replays its log as it was played: nobody placed on a player who had
    returned, so the next player returned too."""
    full = {t: [[t + 1, 1], [t + 2, 1]] for t in (0, 1, 2)}
    s = position(hands={3: [1], 4: [2], 0: [4]}, placed={**full, 3: [[0, 2], [1, 2]], 4: [[2, 3]]}, dealer=3,
                 options={"rules_rev": 1})
    events = place(s, 1, 4)
    assert find(events, "whispers.returned") == [{"seat": 4, "n": 2}, {"seat": 0, "n": 2}]
    assert find(events, "whispers.reveal.none") == [{"seat": 4, "cards": [], "status": 1, "prev": 1},
                                                    {"seat": 0, "cards": [], "status": 1, "prev": 1}]


def test_a_return_on_the_first_lap_returns_both_cards():
    """«он возвращает эту карту в центр стола»: with two cards still in hand, both go back."""
    full = {t: [[t + 1, 1], [t + 2, 1]] for t in (1, 2, 3, 4)}
    s = position(hands={4: [3], 0: [2, 5]}, placed=full, dealer=4)
    events = place(s, 3, 0)  # seat 4 may place only on seat 0; then seat 0 has no target at all
    assert find(events, "whispers.returned") == [{"seat": 0, "n": 1}]
    assert find(events, "whispers.reveal.none") == [{"seat": 0, "cards": [], "status": 1, "prev": 1}]
    assert s.round == 2
    assert s.count_cards() == 39 and all_cards(s) == full_deck()


# ----------------------------------------------------------------------------------- the reveal


def reveal(cards, prev=1, sides=(D, D, C, C, C), target=2, extra=None, **kw):
    """Place ``cards`` on ``target`` (from seats 0 and 1) and play the round out."""
    hands = {0: [cards[0]]}
    if len(cards) > 1:
        hands[1] = [cards[1]]
    hands.update(extra or {})
    s = position(sides=sides, hands=hands, status={target: prev}, **kw)
    events = []
    for card in cards:
        events += place(s, card, target)
    while s.round == 1 and s.stage == "place":
        events += GAME.apply(s, s.turn, GAME.awaiting(s)[0].default)
    return s, events


def test_reveal_cards_are_sorted():
    """«каждый игрок ... берет карты статуса, выложенные перед игроком слева от него, перемешивает
    их между собой и возвращает на место лицом вниз (это делается для того, чтобы игрок не мог
    узнать, какую карту дал ему тот или иной игрок)»"""
    s, events = reveal([4, 2])
    assert find(events, "whispers.reveal.higher") == [{"seat": 2, "cards": [2, 4], "status": 4, "prev": 1}]
    s, events = reveal([2, 4])
    assert find(events, "whispers.reveal.higher") == [{"seat": 2, "cards": [2, 4], "status": 4, "prev": 1}]


def test_equal_ranks():
    """«Если их ранг одинаковый, на центр стола возвращается любая из них.»"""
    s, events = reveal([3, 3])
    assert find(events, "whispers.reveal.equal") == [{"seat": 2, "cards": [3, 3], "status": 3, "prev": 1}]
    assert s.status[2] == 3 and s.markers[2] == 3
    assert s.count_cards() == 39 and all_cards(s) == full_deck()


def test_higher_rank_wins_and_status_can_go_down():
    """«Если их ранг разный, на центр стола возвращается карта с меньшим рангом.» / «Любая карта,
    определявшая до этого статус игрока, должна быть возвращена в центр стола.»"""
    s, events = reveal([1, 3])
    assert s.status[2] == 3 and find(events, "whispers.reveal.higher")[0]["status"] == 3
    s, events = reveal([1, 2], prev=4)
    assert find(events, "whispers.reveal.higher") == [{"seat": 2, "cards": [1, 2], "status": 2, "prev": 4}]
    assert s.status[2] == 2 and s.markers[2] == 2 and not s.revealed[2]
    s, events = reveal([1], prev=3)  # a single card becomes the status
    assert find(events, "whispers.reveal.higher") == [{"seat": 2, "cards": [1], "status": 1, "prev": 3}]
    assert s.status[2] == 1 and s.markers[2] == 1
    assert s.count_cards() == 39 and all_cards(s) == full_deck()


def test_no_cards_no_change():
    """«Открытые карты определяют новый статус игрока»: nothing placed, nothing changes (and no
    reveal event for a player who did not return)."""
    s, events = reveal([3, 3], prev=1)
    assert s.status[3] == 1 and all(p["seat"] != 3 for e in events if e.key.startswith("whispers.reveal.")
                                    for p in [e.params])


@pytest.mark.parametrize("prev", [1, 2])
def test_fled_is_ignored_on_a_safe_status(prev):
    """«Если предыдущий статус игрока был «Игнорируемый» или «Скрывшийся», то карта «Сбежавший» не
    считается, и игрок принимает статус второй сыгранной на него карты.»"""
    s, events = reveal([5, 3], prev=prev)
    assert find(events, "whispers.reveal.fled_ignored") == [{"seat": 2, "cards": [3, 5], "status": 3, "prev": prev}]
    assert s.status[2] == 3 and not s.defeated[2]
    s, events = reveal([1, 5], prev=prev)
    assert find(events, "whispers.reveal.fled_ignored") == [{"seat": 2, "cards": [1, 5], "status": 1, "prev": prev}]
    assert s.count_cards() == 39 and all_cards(s) == full_deck()


def test_two_fled_cards_change_nothing():
    """«Если в этом раунде обе выложенные перед игроком карты оказались со статусом «Сбежавший», то
    они обе сбрасываются в центр стола и статус игрока не изменяется.»"""
    s, events = reveal([5, 5], prev=2)
    assert find(events, "whispers.reveal.unchanged") == [{"seat": 2, "cards": [5, 5], "status": 2, "prev": 2}]
    assert s.status[2] == 2 and s.markers[2] == 2 and not s.defeated[2]
    s, events = reveal([5], prev=1)
    assert find(events, "whispers.reveal.unchanged") == [{"seat": 2, "cards": [5], "status": 1, "prev": 1}]


@pytest.mark.parametrize("prev", [3, 4])
def test_fled_defeats_a_vulnerable_player(prev):
    """«Однако, если предыдущий статус игрока был «Обвиняемый» или «Незащищенный», то игрок
    принимает на себя статус «Сбежавший».» / «Этот игрок должен открыть свою карту Персонажа ...
    Все его карты статуса сбрасываются на центр стола.»"""
    s, events = reveal([1, 5], prev=prev, extra={2: [4]})
    assert find(events, "whispers.reveal.defeated") == [
        {"seat": 2, "cards": [1, 5], "status": 5, "prev": prev, "side": C}]
    assert s.defeated[2] and s.revealed[2] and s.status[2] == 5 and s.markers[2] is None
    view = GAME.view(s, SPECTATOR)
    assert view["revealed"][2] == C and view["defeated"][2] and view["status"][2] == 5
    assert s.count_cards() == 39 and all_cards(s) == full_deck()
    # a defeated player is skipped in the placement and is no target
    assert s.stage == "pass" and s.turn == 2  # (a defeated Capitol citizen: one card to pass first)
    GAME.apply(s, 2, {"type": "discard_pass"})
    assert 2 not in s.order and s.stage == "place"
    assert all(a["target"] != 2 for a in GAME.legal(s, s.turn))


def test_exposed_twice_reveals_the_role_but_the_player_stays():
    """«Если в предыдущем раунде игрок имел статус «Незащищенный», и если в текущем раунде он также
    получает статус «Незащищенный», этот игрок должен перевернуть свою карточку персонажа лицом
    вверх. «Незащищенный» игрок еще не считается побежденным»"""
    s, events = reveal([4, 2], prev=4, sides=(D, C, D, C, C, C))
    assert keys(events)[keys(events).index("whispers.reveal.higher") + 1] == "whispers.exposed_twice"
    assert find(events, "whispers.exposed_twice") == [{"seat": 2, "side": D}]
    assert s.revealed[2] and not s.defeated[2] and s.status[2] == 4
    assert GAME.view(s, SPECTATOR)["revealed"] == [None, None, D, None, None, None]
    assert 2 in s.order  # still in play
    # Exposed once only (from Accused): nothing is revealed
    s, events = reveal([4, 2], prev=3, sides=(D, C, D, C, C, C))
    assert not find(events, "whispers.exposed_twice") and not s.revealed[2]


def test_capitol_wins_at_once_when_all_district_cards_are_face_up():
    """«Как только карты Персонажей всех Граждан Дистриктов оказываются перевернуты лицом вверх (из-за
    статуса «Сбежавший» или «Незащищенный»), Граждане Капитолия побеждают в игре. Победа
    засчитывается мгновенно, даже если раунд еще не закончен.»"""
    s = position(sides=(C, C, D, D, C), hands={0: [5], 1: [4], 4: [4]}, status={2: 3, 3: 4}, defeated=(),
                 revealed=(3,))
    events = place(s, 5, 2)  # seat 2 is defeated at the reveal; seat 3 is revealed already
    events += place(s, 4, 3)
    events += place(s, 4, 0)
    assert keys(events)[-2:] == ["whispers.reveal.defeated", "whispers.winner"]
    # the round stopped: seat 3's cards were never revealed
    assert not [e for e in events if e.key.startswith("whispers.reveal.") and e.params["seat"] == 3]
    assert find(events, "whispers.winner") == [{"side": C, "seats": [0, 1, 4], "reason": "all_district_revealed"}]
    assert s.stage == "over" and GAME.awaiting(s) == [] and all(GAME.legal(s, x) == [] for x in range(5))
    assert GAME.outcome(s) == Outcome((0, 1, 4), "whispers.outcome.all_district_revealed", {"side": C})
    assert s.count_cards() == 39 and all_cards(s) == full_deck()
    raises("whispers.error.game_over", s, 0, {"type": "place", "card": 1, "target": 1})
    # also by Exposed twice
    s, events = reveal([4, 4], prev=4, sides=(C, C, D, D, C), revealed=(3,))
    assert find(events, "whispers.winner") == [{"side": C, "seats": [0, 1, 4], "reason": "all_district_revealed"}]
    assert GAME.view(s, SPECTATOR)["winner"] == C


def test_district_wins_at_the_end_of_the_round():
    """«Если число побежденных граждан Капитолия по крайней мере на 2 превышает число побежденных
    Граждан Дистриктов, то Граждане Дистриктов побеждают в игре. Например, в конце раунда в центре
    стола оказываются 3 открытых карты Граждан Капитолия и 1 открытая карта Гражданина Дистриктов.»"""
    sides = (D, D, C, C, C, C, C, D)
    s = position(sides=sides, hands={0: [5], 1: [3], 2: [2]}, status={3: 4, 5: 2}, defeated=(4, 6, 7))
    # 2 Capitol and 1 District defeated so far
    events = place(s, 5, 3)  # Capitol seat 3 (Exposed) is defeated: 3 Capitol against 1 District
    events += place(s, 3, 5)
    assert not find(events, "whispers.winner")  # not yet: the round is still on
    events += place(s, 2, 5)
    winner = find(events, "whispers.winner")
    assert winner == [{"side": D, "seats": [0, 1, 7], "reason": "capitol_defeated",
                       "capitol_defeated": 3, "district_defeated": 1}]
    # after every reveal of the round (seat 5 reveals after seat 3)
    order = [e.params["seat"] for e in events if e.key.startswith("whispers.reveal.")]
    assert order == [3, 5] and keys(events)[-1] == "whispers.winner"
    # defeated players of the winning side win too
    assert GAME.outcome(s) == Outcome((0, 1, 7), "whispers.outcome.capitol_defeated",
                                      {"side": D, "capitol_defeated": 3, "district_defeated": 1})


def test_capitol_condition_has_priority():
    """«Победа засчитывается мгновенно, даже если раунд еще не закончен.»: both conditions in one
    round: the Capitol wins (checked after each reveal, the District's only at the end)."""
    sides = (D, D, D, C, C, C, C)
    s = position(sides=sides, hands={0: [5], 2: [5]}, status={1: 3, 5: 4}, defeated=(3, 4),
                 revealed=(0, 2), dealer=5)
    events = place(s, 5, 1)  # the dealer is seat 5: reveals go 5, 6, 0, 1
    events += place(s, 5, 5)
    reveals = [e.params["seat"] for e in events if e.key == "whispers.reveal.defeated"]
    assert reveals == [5, 1]  # 3 Capitol and 1 District defeated: the District condition holds too
    assert find(events, "whispers.winner") == [{"side": C, "seats": [3, 4, 5, 6], "reason": "all_district_revealed"}]


def test_justice_passes_left_through_defeated_players():
    """«Действующий Ведущий передает карту Вершителя Правосудия игроку слева от себя. Этот игрок
    становится новым Ведущим.» (defeated players too: the dealer only deals)"""
    s = position(sides=(D, D, D, C, C, C), hands={0: [1], 1: [1]}, defeated=(2, 4), dealer=3)
    events = place(s, 1, 3)
    events += place(s, 1, 5)
    assert find(events, "whispers.justice") == [{"seat": 4}]
    assert keys(events).index("whispers.justice") < keys(events).index("whispers.round")
    assert find(events, "whispers.round") == [{"round": 2, "seat": 4}]
    assert s.dealer == 4 and GAME.view(s, SPECTATOR)["dealer"] == 4
    # the discards are shuffled back in: every card is in the deck or dealt again
    assert s.discard == [] and s.count_cards() == 39 and all_cards(s) == full_deck()


def test_round_cap_ends_with_no_winner():
    """A safety cap of ours (option ``rounds``): after that many rounds nobody wins."""
    s = position(hands={0: [1], 1: [1]}, options={"rounds": 10}, round_no=10)
    events = place(s, 1, 2)
    events += place(s, 1, 3)
    assert find(events, "whispers.winner") == [{"side": "none", "seats": [], "reason": "round_limit"}]
    assert GAME.outcome(s) == Outcome((), "whispers.outcome.round_limit", {"side": "none"})
    assert GAME.view(s, SPECTATOR)["winner"] == "none" and GAME.awaiting(s) == []


def test_stalemate_when_one_player_is_left_in_play():
    """Decision (docs/whispers-protocol.md): one player left in play can never be placed on."""
    s = position(sides=(D, D, D, C, C, C), hands={0: [5]}, status={1: 3}, defeated=(2, 3, 4, 5))
    events = place(s, 5, 1)
    assert find(events, "whispers.winner") == [{"side": "none", "seats": [], "reason": "stalemate"}]
    assert GAME.outcome(s) == Outcome((), "whispers.outcome.stalemate", {"side": "none"})


# ----------------------------------------------------------------------------------- views


PUBLIC = {"players", "round", "dealer", "stage", "turn", "lap", "status", "revealed", "defeated", "face_up",
          "placed", "hand_sizes", "returned", "passer", "deck", "discard", "district_total", "capitol_total",
          "coop", "peacekeepers_from", "last_reveal", "winner", "rules_rev"}


def test_views_never_leak():
    """«роли остаются в тайне на протяжении игры» / «показывать их запрещено»: a seat sees the
    public part plus its own side, hand and placements; a spectator the public part; MASTER all."""
    s = position(sides=(D, C, D, C, C), hands={0: [3, 4], 1: [1, 5], 2: [2, 2], 3: [1, 1], 4: [3, 3]},
                 status={1: 3})
    place(s, 4, 1)
    place(s, 5, 3)
    spectator = GAME.view(s, SPECTATOR)
    assert set(spectator) == PUBLIC
    assert spectator["revealed"] == [None] * 5 and spectator["placed"] == [0, 1, 0, 1, 0]
    for seat in range(5):
        view = GAME.view(s, seat)
        extra = {"me", "side", "hand", "my_placements"} | ({"team"} if s.sides[seat] == D else set())
        assert set(view) == PUBLIC | extra
        assert {k: view[k] for k in PUBLIC} == spectator
        assert view["hand"] == sorted(s.hands[seat]) and view["side"] == s.sides[seat]
        mine = [[t, r] for t in range(5) for p, r in s.placed[t] if p == seat]
        assert view["my_placements"] == mine
    assert GAME.view(s, 0)["team"] == [0, 2] and GAME.view(s, 0)["my_placements"] == [[1, 4]]
    master = GAME.view(s, MASTER)
    assert master["sides"] == s.sides and master["hands"] == [sorted(h) for h in s.hands]
    assert master["placed_cards"] == [[], [[0, 4]], [], [[1, 5]], []]
    # views are copies: changing one does not touch the game
    view = GAME.view(s, 0)
    view["hand"].append(5)
    view["status"][0] = 4
    assert GAME.view(s, 0)["hand"] == [3] and s.status[0] == 1


def test_replays_are_exact():
    """Same seed, options and actions: the same game (every view, every event)."""
    for seed in range(5):
        rng = random.Random(seed)
        s = GAME.new(7, {"return_rule": "one"}, seed)
        log, events = [], [GAME.start_events(s)]
        while GAME.outcome(s) is None:
            seat = GAME.awaiting(s)[0].seat
            action = GAME.bot_action(GAME.view(s, seat), GAME.legal(s, seat), rng, "normal")
            log.append((seat, action))
            events.append(GAME.apply(s, seat, action))
        twin = GAME.new(7, {"return_rule": "one"}, seed)
        again = [GAME.start_events(twin)] + [GAME.apply(twin, seat, action) for seat, action in log]
        assert again == events
        for viewer in (MASTER, SPECTATOR, *range(7)):
            assert GAME.view(twin, viewer) == GAME.view(s, viewer)
        assert twin.rng.getstate() == s.rng.getstate()


def test_awaiting():
    s = position(hands={0: [3], 1: [2]}, round_no=3)
    [wait] = GAME.awaiting(s)
    assert (wait.seat, wait.kind, wait.seconds) == (0, "turn", 90)
    assert wait.default == {"type": "place", "card": 3, "target": 1}
    assert wait.window.startswith("r3-place-")
    place(s, 3, 2)
    [other] = GAME.awaiting(s)
    assert other.seat == 1 and other.window != wait.window


def test_a_rematch_leaves_the_peacekeepers_to_the_start_plan():
    """A rematch of a cooperative table keeps the players' seats and options; the Peacekeepers
    (§1.6) and ``peacekeepers_from`` come back from the start plan, not twice."""
    options = GAME.validate_options({"peacekeepers": 4})
    extra, added = GAME.start_plan(options, 2)
    assert (extra, added) == (4, {"peacekeepers_from": 2})
    played = {**options, **added}
    kept, seats = GAME.rematch_plan(played, 2 + extra)
    assert (kept, seats) == (options, 2)
    assert GAME.rematch_plan(GAME.validate_options({}), 7) == (GAME.validate_options({}), 7)
