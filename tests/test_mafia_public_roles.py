"""Forum Mafia: the 34 listed public roles (seed 004 version C, lines 396-575; ../shared/rules/mafia.md
4.4 and 4.6), one test per ability on a set position; tie priority; bot games with public roles.
Each docstring quotes the line it checks."""
from __future__ import annotations

import random

from games.base import MASTER
from games.mafia import GAME, bot
from games.mafia import night as NI
from games.mafia import resolution as RES
from games.mafia import state as MS
from games.mafia import stalemate as Q
from games.mafia import roles as R
from games.mafia.public_roles import PUBLIC_ORDER, ROLES, public_key
from tests.test_mafia_engine import err, finish, game, keys, order, to, touch

BASE = ["boss", "killer", "officer", "civilian", "maniac"]  # seats 0..4


def names(given: dict[int, str], n: int = 5) -> list[str]:
    """Public-role names by seat: the given ones, custom names «p0»... elsewhere."""
    return [given.get(x, f"p{x}") for x in range(n)]


def pos(given: dict[int, str], index: int = 0, roles=None) -> MS.MafiaState:
    roles = roles or BASE
    return game(roles, index, public=names(given, len(roles)))


def vote(s, seat, target):
    return GAME.apply(s, seat, {"type": "vote", "target": target})


def goto(s, index):
    s.index, s.phase = index, "night" if index % 2 == 0 else "day"
    touch(s)


def announced(events, ability):
    return [e.params for e in keys(events, "mafia.announced") if e.params["ability"] == ability]


# ----------------------------------------------------------------------------------- names, order


def test_public_key_maps_russian_english_and_keys_any_case():
    """«В поле "Класс" пишете желаемую Явную роль»: names as typed map to the listed roles."""
    assert len(PUBLIC_ORDER) == 34 and PUBLIC_ORDER[0] == "highlander" and PUBLIC_ORDER[-1] == "gossip"
    assert public_key("Горец") == public_key("горец") == public_key("Highlander") == "highlander"
    assert public_key("МАРОДЁР") == public_key("мародер") == "marauder"
    assert public_key("Серый кардинал (Анонимус)") == public_key("grey_cardinal") == "grey_cardinal"
    assert public_key("Аноним") == "anonymous" and public_key("Вася") == "other"
    assert [R.PUBLIC_ROLES[k].order for k in PUBLIC_ORDER] == list(range(1, 35))
    s = GAME.new(5, {"public_roles": ["горец", "Прокурор", "Vasya", "Anonymous", "x"]}, 0)
    assert s.public == ["highlander", "prosecutor", "other", "anonymous", "other"]
    assert s.names[0] == "горец"
    assert err(GAME.new, 5, {"public_roles": ["Горец", "Highlander", "a", "b", "c"]}, 0).key == \
        "mafia.error.duplicate_public_role"


def test_tie_priority_listed_roles_in_order_then_custom_names_alphabetically():
    """«приоритет имеет персонаж, чья Явная роль в правилах указана раньше»; «(Другой)»: «Приоритет
    повешения - по алфавиту» (decision #12)."""
    s = game(BASE, 3, public=["Яша", "Анна", "Прокурор", "Горец", "Бард"])
    order_ = sorted(range(5), key=lambda x: RES.tie_key(s, x))
    assert order_ == [3, 2, 4, 1, 0]
    for voter, target in ((0, 3), (3, 2)):  # 1 vote each on the Горец and the Прокурор
        vote(s, voter, target)
    s.roles = ["boss", "boss", "boss", "boss", "maniac"]  # every vote weighs 1
    touch(s)
    finish(s)
    assert s.last_vote["seat"] == 3 and not s.alive[3]


# ----------------------------------------------------------------------------------- the roles


def test_highlander_takes_no_damage_on_nights_one_and_two():
    """Горец: «Бессмертие(Т) --- в первые две ночи не получает урона.»"""
    s = pos({2: "Горец"}, 0)
    order(s, 1, "pistol", 2)
    finish(s)
    assert s.hp[2] == 2
    s = pos({2: "Горец"}, 2)
    order(s, 1, "tommygun", 2)
    finish(s)
    assert s.hp[2] == 2
    s = pos({2: "Горец"}, 4)
    order(s, 1, "pistol", 2)
    finish(s)
    assert s.hp[2] == 1


def test_prosecutor_adds_five_votes_once_publicly():
    """Прокурор: «один раз за игру днем может публично внести дополнительно 5 голосов» (A: 3)."""
    s = pos({3: "Прокурор"}, 3)
    order(s, 3, "indictment", 4)
    events = finish(s)
    assert not s.alive[4] and announced(events, "indictment") == [{"seat": 3, "ability": "indictment",
                                                                   "target_seat": 4}]
    goto(s, 5)
    assert err(order, s, 3, "indictment", 1).key == "mafia.error.used_up"
    s = pos({3: "Прокурор"}, 3)
    s.version = "A"
    n = NI._Night(s)
    NI.HANDLERS["indictment"](n, 3, ROLES["prosecutor"].abilities["indictment"], {"target": 4})
    assert s.extra_votes[3][4] == 3


def test_strongman_has_three_hp_and_knows_it():
    """Здоровяк: «ЗОЖ (Т) --- +1 ХП. Всегда знает свое количество ХП.»"""
    s = pos({2: "Здоровяк"})
    assert s.hp[2] == 3 and GAME.view(s, 2)["own_hp"] == 3 and "own_hp" not in GAME.view(s, 1)
    order(s, 1, "pistol", 2)
    finish(s)
    assert GAME.view(s, 2)["own_hp"] == 2 and not s.hospital(2)


def test_monk_regains_one_hp_after_a_night_at_one():
    """Монах: «Медитация --- если по итогам ночи имеет 1 ХП, восстанавливает 1 ХП.»"""
    s = pos({2: "Монах"}, 2)
    order(s, 1, "pistol", 2)
    finish(s)
    assert s.hp[2] == 2
    s = pos({2: "Монах"}, 2)
    s.jail[2] = 9  # no Т: lost in Jail
    order(s, 1, "pistol", 2)
    finish(s)
    assert s.hp[2] == 1


def test_patrolman_blocks_the_target_by_day_once():
    """Патрульный: «Задержание (Б) --- раз за игру днём может публично заблокировать цель.»"""
    s = pos({3: "Патрульный"}, 3)
    vote(s, 2, 4)
    order(s, 3, "detention", 2)
    events = finish(s)
    assert s.alive[4] and keys(to(events, 2), "mafia.blocked_day") and announced(events, "detention")
    assert "detention" in s.used[3]


def test_sociopath_cannot_be_targeted_on_night_one():
    """Социопат: «Затворник --- не может быть целью способностей других персонажей в первую ночь.»"""
    s = pos({2: "Социопат"}, 0)
    assert err(order, s, 1, "pistol", 2).key == "mafia.error.bad_target"
    legal = GAME.legal(s, 1)
    assert not [a for a in legal if a.get("target") == 2]
    s = pos({2: "Социопат"}, 2)
    order(s, 1, "pistol", 2)


def test_avenger_becomes_a_spirit_once_and_wins_a_stalemate():
    """Мститель: «один раз за игру, если умирает, вместо этого публично превращается в "духа". Дух
    обладает 1 жизнью, не попадает в Госпиталь и не может объявлять никаких действий, кроме
    Нападения ... Если ни один другой персонаж не может достичь условий победы ..., Дух побеждает.»"""
    s = pos({3: "Мститель"}, 2)
    s.hp[3] = 1
    order(s, 1, "pistol", 3)
    events = finish(s)
    assert s.alive[3] and s.hp[3] == 1 and not s.hospital(3)
    assert [e.params for e in keys(events, "mafia.spirit")] == [{"seat": 3}]
    assert GAME.view(s, 0)["spirits"] == [False, False, False, True, False]
    assert err(vote, s, 3, 0).key == "mafia.error.spirit"  # decision #18: no vote
    s.quiet = Q.STALEMATE_PHASES
    assert RES.check_win(s, False) == ("spirit", (3,))
    s.quiet = 0
    goto(s, 4)
    order(s, 1, "pistol", 3)
    finish(s)
    assert not s.alive[3]


def test_pensioner_one_hp_no_hospital_immune_to_sawnoff_and_respect():
    """Пенсионер: «Старость(Т) --- на старте имеет 1 хп. Не попадает в Госпиталь, иммунен к Диверсии
    и Обрезу. Уважение(Т) --- атаковавший пенсионера попадает в Тюрьму до конца игры, даже если он
    Воин или Тюремщик.»"""
    s = GAME.new(5, {"public_roles": names({3: "Пенсионер", 1: "Воин"})}, 0)
    s.roles = list(BASE)
    touch(s)
    assert s.hp[3] == 1 and not s.hospital(3)
    order(s, 2, "revolver", 0)  # (keeps the game going)
    order(s, 3, "own_hands", 0)
    order(s, 0, "sawnoff")
    finish(s)
    assert s.alive[3] and s.hp[3] == 1
    goto(s, 2)
    order(s, 1, "pistol", 3)
    events = finish(s)
    assert not s.alive[3] and s.jail[1] == R.LIFE
    assert {"seat": 1, "until": "life"} in [e.params for e in keys(events, "mafia.jailed")]


def test_unemployed_switches_to_a_role_not_in_play_at_the_end_of_the_day():
    """Безработный: «Биржа труда --- днём может публично сменить свою Явную роль на любую другую, не
    участвующую в игре (получит её по итогам дня).»"""
    s = pos({3: "Безработный", 2: "Горец"}, 3)
    assert err(order, s, 3, "labour_exchange", public="горец").key == "mafia.error.bad_arg"
    order(s, 3, "labour_exchange", public="Prosecutor")
    assert RES.tie_key(s, 3)[0] == ROLES["unemployed"].order
    events = finish(s)
    assert s.public[3] == "prosecutor" and s.names[3] == "Прокурор"
    assert [e.params for e in keys(events, "mafia.role_changed")] == [{"seat": 3, "key": "prosecutor",
                                                                      "name": "Прокурор"}]


def test_warrior_acts_from_hospital_and_is_never_jailed():
    """Воин: «Неудержимый --- все свои способности работают из Госпиталя. Не попадает в Тюрьму.»"""
    s = pos({2: "Воин"}, 2)
    s.hp[2] = 1
    order(s, 2, "revolver", 4)  # Наган has no Г
    plain = pos({}, 2)
    plain.hp[2] = 1
    assert err(order, plain, 2, "revolver", 4).key == "mafia.error.hospital"
    s = pos({2: "Воин", 3: "Комиссар"}, 3)
    order(s, 3, "raid", 2)
    finish(s)
    assert not s.jailed(2)


def test_acrobat_somersault_once_no_damage_from_attacks():
    """Акробат: «Кульбит --- один раз за игру ночью ... не получает урона от атак этой ночью.»"""
    s = pos({3: "Акробат"}, 2)
    order(s, 3, "somersault")
    order(s, 1, "pistol", 3)
    finish(s)
    assert s.hp[3] == 2 and "somersault" in s.used[3]
    goto(s, 4)
    assert err(order, s, 3, "somersault").key == "mafia.error.used_up"


def test_authority_adds_two_to_the_vote():
    """Авторитет: «Влияние --- +2 к силе голоса.» (A: +1)"""
    s = pos({2: "Авторитет"}, 3)
    vote(s, 2, 4)
    assert RES.tally(s) == {4: 4}
    assert RES.vote_weight(s, 2) == 4
    s.version = "A"
    assert RES.vote_weight(s, 2) == 1 + 1


def test_marauder_exhumes_at_once_and_robs_a_grave_publicly():
    """Мародер: «Гробокопательство --- один раз за игру ночью может выбрать любого персонажа,
    находящегося в Морге. Утром публично получает все способности его Явной роли. Эксгумация ---
    один раз за игру в любой момент может узнать Тайную роль мертвого персонажа.»"""
    s = pos({3: "Мародер", 4: "Прокурор"}, 2)
    s.alive[4], s.dead_at[4] = False, 1
    touch(s)
    events = order(s, 3, "exhumation", 4)
    assert [e.params for e in keys(events, "mafia.autopsy")] == [
        {"seat": 3, "ability": "exhumation", "target_seat": 4, "role": "maniac"}]
    assert err(order, s, 3, "exhumation", 4).key == "mafia.error.used_up"
    order(s, 3, "graverobbing", 4)
    events = finish(s)
    assert [e.params for e in keys(events, "mafia.looted")] == [{"seat": 3, "target_seat": 4, "key": "prosecutor"}]
    assert "indictment" in GAME.view(s, 3)["abilities"] and GAME.view(s, 3)["looted"] == ["prosecutor"]


def test_drunkard_pal_may_not_attack_or_vote_him_for_a_night_and_a_day():
    """Алкаш: «Попойка - днём публично скорешится с любым персонажам. На следующие сутки тот не может
    атаковать алкаша и голосовать в него. Нельзя выбирать одного персонажа дважды.»"""
    s = pos({3: "Алкаш"}, 1)
    order(s, 3, "binge", 1)
    events = finish(s)
    assert announced(events, "binge") and s.index == 2
    assert err(order, s, 1, "pistol", 3).key == "mafia.error.bad_target"
    order(s, 1, "pistol", 2)
    finish(s)
    assert err(vote, s, 1, 3).key == "mafia.error.bad_target"
    assert err(order, s, 3, "binge", 1).key == "mafia.error.bad_target"  # never twice
    goto(s, 4)
    order(s, 1, "pistol", 3)


def test_grey_cardinal_open_vote_plus_two_and_votes_from_jail():
    """Серый кардинал: «Особый цинизм (Т) - +2 к силе голоса, если голосует открыто. Может голосовать
    из Тюрьмы.»"""
    s = pos({2: "Серый кардинал"}, 3)
    s.jail[2] = 5
    touch(s)
    vote(s, 2, 4)
    assert RES.tally(s) == {4: 2}
    order(s, 2, "open_vote")
    assert RES.tally(s) == {4: 4}
    events = finish(s)
    assert [e.params for e in keys(events, "mafia.open_vote")] == [{"seat": 2, "target_seat": 4}]


def test_politician_plus_one_and_jail_instead_of_execution():
    """Политик: «Деспотия --- +1 к силе Голоса. Иммунитет --- если повешен на Дневном Вече, вместо
    смерти отправляется в Тюрьму на сутки (ночь, день).»"""
    s = pos({4: "Политик"}, 3)
    assert RES.vote_weight(s, 4) == 3 + 1
    vote(s, 2, 4)
    finish(s)
    assert s.alive[4] and s.jail[4] == 5 and s.last_vote == {"seat": 4, "fate": "immunity", "day": 2}


def test_hacker_learns_a_secret_role_from_day_four():
    """Хакер: «Взлом досье (Т) --- на четвёртый день может узнать Тайную роль любого персонажа.»"""
    s = pos({3: "Хакер"}, 5)
    assert err(order, s, 3, "hack", 0).key == "mafia.error.not_now"
    goto(s, 7)
    order(s, 3, "hack", 0)
    events = finish(s)
    assert [e.params for e in keys(to(events, 3), "mafia.dossier")] == [
        {"seat": 3, "ability": "hack", "target_seat": 0, "role": "boss"}]


def test_anonymous_always_shows_anonymous_one():
    """Аноним: «Инкогнито (Т,М) --- ... всегда имеет только одну личину: Аноним(1). Если чья-то
    способность требует назвать Личину, нельзя называть Анонима.»"""
    s = pos({4: "Аноним"}, 2)
    assert MS.personas_seen(s, 4) == {"anonymous": 1}
    order(s, 3, "own_hands", 4)
    events = finish(s)
    (got,) = keys(to(events, 3), "mafia.personas")
    assert got.params["personas"] == ["anonymous", "anonymous"]
    assert "anonymous" not in R.PERSONAS


def test_brewer_beer_fake_and_self():
    """Пивовар: «Пиво --- днем может публично угостить пивом цель, не находящуюся в Госпитале. На
    следующую ночь цель получает на 1 урона от Пистолета и Наганов меньше. ... Суррогат --- ... может
    тайно подсунуть подделку, которая не сработает. ... раз за игру может выпить пиво сам.»"""
    s = pos({3: "Пивовар"}, 3)
    order(s, 3, "beer", 2)
    events = finish(s)
    assert announced(events, "beer") == [{"seat": 3, "ability": "beer", "target_seat": 2}]
    order(s, 1, "pistol", 2)
    finish(s)
    assert s.hp[2] == 2
    s = pos({3: "Пивовар"}, 3)
    order(s, 3, "fake_beer", 2)
    events = finish(s)
    assert announced(events, "beer") == [{"seat": 3, "ability": "beer", "target_seat": 2}]
    order(s, 1, "pistol", 2)
    finish(s)
    assert s.hp[2] == 1
    goto(s, 5)
    assert err(order, s, 3, "beer", 2).key == "mafia.error.bad_target"  # in Hospital (and used)
    order(s, 3, "beer", 3)  # himself, once
    finish(s)
    goto(s, 7)
    assert err(order, s, 3, "beer", 3).key == "mafia.error.bad_target"


def test_jailer_lets_the_jailed_vote_and_is_never_jailed():
    """Тюремщик: «Тайный ход --- не попадает в Тюрьму. Злоупотребление --- днем может разрешить
    голосовать в эту фазу любым персонажам, находящимся в Тюрьме.»"""
    s = pos({3: "Тюремщик"}, 3)
    s.jail[2] = 5
    touch(s)
    assert err(vote, s, 2, 4).key == "mafia.error.jailed"
    order(s, 3, "abuse")
    vote(s, 2, 4)
    assert RES.tally(s) == {4: 2}
    finish(s)
    assert not s.alive[4]
    NI._jail(s, 3, 9, [])
    assert s.jail[3] is None


def test_journalist_learns_a_persona_after_the_next_night_not_when_voting():
    """Журналист: «Расследование --- днем, если не использует Голосование, может публично выбрать цель.
    По итогам следующей ночи узнает ее Личину. Нельзя применять дважды на одного и того же персонажа.»"""
    s = pos({3: "Журналист"}, 3)
    vote(s, 3, 4)
    assert err(order, s, 3, "reportage", 0).key == "mafia.error.exclusive"
    GAME.apply(s, 3, {"type": "cancel", "ability": "vote"})
    order(s, 3, "reportage", 0)
    events = finish(s)
    assert announced(events, "reportage") and not keys(to(events, 3), "mafia.personas")
    events = finish(s)
    (got,) = keys(to(events, 3), "mafia.personas")
    assert got.params["ability"] == "reportage" and got.params["target_seat"] == 0
    assert got.params["personas"][0] in R.ROLE_PERSONAS["boss"]
    assert err(order, s, 3, "reportage", 0).key == "mafia.error.bad_target"


def test_electrician_one_damage_once_not_on_hospital_or_jail_nor_pensioner():
    """Электрик: «Диверсия --- один раз за игру днем может публично выбрать цель, не находящуюся в
    Госпитале или Тюрьме. Цель получает 1 урона.»"""
    s = pos({3: "Электрик"}, 3)
    s.hp[2], s.jail[1] = 1, 5
    touch(s)
    assert err(order, s, 3, "diversion", 2).key == "mafia.error.bad_target"
    assert err(order, s, 3, "diversion", 1).key == "mafia.error.bad_target"
    order(s, 3, "diversion", 4)
    events = finish(s)
    assert s.hp[4] == 1 and keys(events, "mafia.hospital") and announced(events, "diversion")
    s = pos({3: "Электрик", 4: "Пенсионер"}, 3)
    order(s, 3, "diversion", 4)
    finish(s)
    assert s.hp[4] == 1 and s.alive[4]


def test_cook_puts_the_target_in_hospital_next_night():
    """Повар: «Карательная кулинария --- днем может публично выбрать цель. На следующую ночь цель
    ложится в Госпиталь независимо от ХП. Нельзя применять дважды на одного и того же персонажа.»"""
    s = pos({3: "Повар"}, 3)
    order(s, 3, "cooking", 2)
    finish(s)
    assert s.hp[2] == 2 and s.hospital(2) and GAME.view(s, 0)["hospital"][2]
    assert err(order, s, 2, "revolver", 0).key == "mafia.error.hospital"
    finish(s)
    assert not s.hospital(2)
    assert err(order, s, 3, "cooking", 2).key == "mafia.error.bad_target"


def test_judge_plus_one_hp_to_the_vote_leader_then_trimmed_to_two():
    """Судья: «Обвинение --- днём может публично выбрать цель. Если она набирает большинство голосов на
    следующий день, получает 1 хп. По итогам следующей ночи теряет все хп выше двух.» (decision #6)"""
    s = pos({3: "Судья", 4: "Политик"}, 3)
    order(s, 3, "accusation", 4)
    finish(s)
    finish(s)
    assert s.index == 5
    vote(s, 2, 4)
    finish(s)
    assert s.alive[4] and s.hp[4] == 3 and s.jailed(4)
    finish(s)
    assert s.hp[4] == 2


def test_ambassador_three_two_one():
    """Посол: «Переговоры - +3 к силе голоса в первый день, +2 во второй, +1 в третий.»"""
    s = pos({2: "Посол"}, 1)
    got = []
    for index in (1, 3, 5, 7):
        goto(s, index)
        got.append(RES.vote_weight(s, 2))
    assert got == [5, 4, 3, 2]


def test_commissar_jails_for_the_next_night_and_day_once():
    """Комиссар: «Маски-шоу --- один раз за игру днем может публично отправить цель в Тюрьму на
    следующие сутки (ночь-день).»"""
    s = pos({3: "Комиссар"}, 3)
    order(s, 3, "raid", 0)
    events = finish(s)
    assert s.jail[0] == 5 and {"seat": 0, "until": 5} in [e.params for e in keys(events, "mafia.jailed")]
    goto(s, 5)
    assert err(order, s, 3, "raid", 1).key == "mafia.error.used_up"


def test_berserk_unblockable_votes_and_mails_from_jail():
    """Берсерк: «Ярость (Т) --- неблокируем. Голосование и Почта работают из Тюрьмы.»"""
    s = pos({1: "Берсерк"}, 2)
    order(s, 0, "interrogation", 1)
    order(s, 1, "pistol", 2)
    finish(s)
    assert s.hp[2] == 1
    s = pos({1: "Берсерк"}, 2)
    s.jail[1] = R.LIFE
    touch(s)
    GAME.apply(s, 1, {"type": "mail", "target": 2, "text": "hi"})
    assert err(order, s, 1, "pistol", 2).key == "mafia.error.jailed"
    finish(s)
    vote(s, 1, 4)


def test_medium_seance_and_aura_twice():
    """Медиум: «Спиритический сеанс --- днем, если не использует Голосование, может узнать по одной
    Личине каждого персонажа, умершего по итогам прошлой ночи. Аура мёртвых --- дважды за игру днём
    может узнать число представителей Закона среди мёртвых ... с вероятностью 50% сторона случайного
    мёртвого персонажа будет искажена на противоположную.»"""
    s = pos({3: "Медиум"}, 3, roles=BASE + ["civilian"])
    s.alive[4], s.dead_at[4] = False, 2
    s.alive[5], s.dead_at[5] = False, 0
    touch(s)
    order(s, 3, "seance")
    order(s, 3, "aura")
    events = finish(s)
    (seen,) = keys(to(events, 3), "mafia.personas")
    assert seen.params == {"seat": 3, "ability": "seance", "target_seat": 4, "personas": ["maniac"]}
    (aura,) = keys(to(events, 3), "mafia.aura")
    assert aura.params["count"] in (0, 1, 2)
    goto(s, 5)
    order(s, 3, "aura")
    finish(s)
    goto(s, 7)
    assert err(order, s, 3, "aura").key == "mafia.error.used_up"


def test_lawyer_cancels_an_execution_once():
    """Адвокат: «Оправдательный приговор --- один раз за игру днём может отменить казнь.»"""
    s = pos({3: "Адвокат"}, 1)
    assert err(order, s, 3, "acquittal").key == "mafia.error.not_now"  # day 1 has no execution
    s = pos({3: "Адвокат"}, 3)
    order(s, 3, "acquittal")
    finish(s)
    assert "acquittal" not in s.used[3]  # nothing to cancel: not used up
    goto(s, 5)
    order(s, 3, "acquittal")
    vote(s, 2, 4)
    finish(s)
    assert s.alive[4] and s.last_vote["fate"] == "acquitted" and "acquittal" in s.used[3]


def test_bard_mails_without_limit_several_a_night_never_twice_to_one_target():
    """Бард: «Слухи в таверне --- может применять Почту сколько угодно раз, в том числе несколько раз
    за ночь, но не на одну цель дважды за игру.»"""
    s = pos({3: "Бард"}, 0)
    s.mail_used[3] = 9
    for target, text in ((0, "a"), (1, "b"), ("city", "c"), (1, "b2")):
        GAME.apply(s, 3, {"type": "mail", "target": target, "text": text})
    events = finish(s)
    assert [e.params["text"] for e in keys(to(events, 0), "mafia.mail")] == ["a"]
    assert [e.params["text"] for e in keys(to(events, 1), "mafia.mail")] == ["b2"]
    assert [e.params["text"] for e in keys(events, "mafia.city_mail")] == ["c"]
    goto(s, 2)
    for target in (0, 1, "city"):
        assert err(GAME.apply, s, 3, {"type": "mail", "target": target, "text": "x"}).key == "mafia.error.bad_target"
    GAME.apply(s, 3, {"type": "mail", "target": 2, "text": "d"})


def test_diplomat_sheds_three_votes_a_day():
    """Дипломат: «Неприкосновенность --- каждый день списывает с себя 3 голоса.» (A: 2)"""
    s = pos({4: "Дипломат"}, 3)
    vote(s, 2, 4)
    assert RES.tally(s) == {4: -1}
    s.version = "A"
    assert R.PUBLIC_ROLES["diplomat"].votes_against(s, 4) == -2


def test_revolutionary_three_votes_next_day():
    """Революционер: «Бунт --- днем может публично выбрать цель. Следующим днем цель получает 3 голоса
    против себя» (A: 1.5)"""
    s = pos({3: "Революционер"}, 3)
    order(s, 3, "riot", 4)
    events = finish(s)
    assert s.extra_votes[5] == {4: 3} and announced(events, "riot")
    finish(s)
    assert RES.tally(s) == {4: 3}


def test_millionaire_vip_against_day_abilities_and_enhanced_votes_and_regenerates():
    """Миллионер: «VIP (Т) --- не может быть целью активных дневных способностей, кроме Голосования.
    Персонажи с улучшенными способностями голосования голосуют против него без учета улучшений. Если
    проводит в Госпитале двое суток подряд и имеет 1 хп, восстанавливает 1 хп.»"""
    s = pos({4: "Миллионер", 3: "Прокурор", 2: "Авторитет"}, 3)
    assert err(order, s, 3, "indictment", 4).key == "mafia.error.bad_target"
    vote(s, 2, 4)
    assert RES.tally(s) == {4: 2}
    s = pos({4: "Миллионер"}, 2, roles=BASE + ["genius"])
    s.hp[4] = 1
    for _ in range(4):  # night 2, day 2, night 3, day 3 in Hospital
        finish(s)
        assert s.hp[4] == 1
    finish(s)  # night 4
    assert s.hp[4] == 2


def test_gossip_banks_votes_on_days_without_voting_and_spends_them():
    """Сплетник: «Компромат (Т) --- если не голосует днем, получает столько голосов в копилку, сколько
    позволяет фракция. Голоса из "копилки" могут быть использованы в любой день, увеличивая его силу
    голоса (при этом они расходуются).»"""
    s = pos({3: "Сплетник"}, 3)
    assert err(order, s, 3, "compromise").key == "mafia.error.not_now"
    finish(s)
    assert GAME.view(s, 3)["bank"] == 2
    finish(s)
    vote(s, 3, 4)
    order(s, 3, "compromise")
    assert RES.tally(s) == {4: 4}
    finish(s)
    assert s.pub["bank"][3] == 0


def test_master_sees_public_role_state():
    s = pos({3: "Повар"}, 3)
    order(s, 3, "cooking", 2)
    finish(s)
    assert GAME.view(s, MASTER)["pub"]["cooked"] == {"4": [2]}


# ----------------------------------------------------------------------------------- bots


def _bot_game(seed: int, players: int) -> str:
    rng = random.Random(seed)
    picked = rng.sample(PUBLIC_ORDER, players)
    typed = [ROLES[k].title if x % 2 else ROLES[k].english for x, k in enumerate(picked)]
    s = GAME.new(players, {"public_roles": typed}, seed)
    assert s.public == picked
    GAME.start_events(s)
    steps = 0
    while GAME.outcome(s) is None:
        waits = GAME.awaiting(s)
        assert waits
        w = waits[rng.randrange(len(waits))]
        legal = GAME.legal(s, w.seat)
        action = GAME.bot_action(GAME.view(s, w.seat), legal, rng, "easy")
        GAME.apply(s, w.seat, action)
        steps += 1
        assert steps < 20_000
    out = GAME.outcome(s)
    if out.winners:
        assert all(s.alive[x] for x in out.winners)
    return out.reason.removeprefix("mafia.outcome.")


def test_bot_games_where_every_seat_holds_a_different_public_role():
    """«Каждой явной роли может быть только один представитель»: bots hold any public role and use it."""
    bot.STRICT = True
    try:
        reasons = [_bot_game(seed, 30 if seed % 3 else 5 + seed % 26) for seed in range(24)]
    finally:
        bot.STRICT = False
    assert set(reasons) <= {"ddd", "legend", "mafia", "law", "stalemate", "spirit"}


def test_a_player_named_like_a_listed_role_without_a_choice_gets_a_custom_role():
    """«(Другой)»: a player who chose nothing plays under their own name, with no abilities."""
    _, plan = GAME.start_plan({"signup": {"Ann": "Бард"}}, 5, ["Ann", "Bard", "Монах", "Bob", "x"])
    assert plan["public_roles"] == ["Бард", "Bard (2)", "Монах (2)", "Bob", "x"]
    s = GAME.new(5, plan, 0)
    assert s.public == ["bard", "other", "other", "other", "other"]


def test_public_effects_still_to_come_hold_off_the_stalemate():
    """4.6 #13: stalemate only when «no pending timed effect»: beer for next night, a cooked
    Hospital, the Judge's accusation, a reportage, the drunkard's pal all count."""
    from games.mafia import public_roles as PR

    s = pos({})
    assert not PR.pending(s)
    for name, value in (("beer", {s.index + 1: [2]}), ("cooked", {s.index + 1: [2]}),
                        ("accused", {s.index + 2: {2: 3}}), ("press", {s.index + 1: [[3, 2]]})):
        s.pub = {name: value}
        assert PR.pending(s), name
        s.pub = {name: {s.index: value[next(iter(value))]}}  # one that has already happened
        assert not PR.pending(s), name
    s.pub = {"pals": [[1, 2, s.index, s.index + 1]]}
    assert PR.pending(s)
    s.pub = {"pals": [[1, 2, s.index - 2, s.index - 1]]}
    assert not PR.pending(s)
