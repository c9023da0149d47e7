"""«Революция» verbs: every action of docs/revolution-protocol.md as a text command.

Cards are named by the number next to them in your hand list (`hand`/`карты`; equipment numbers
go on after the hand, for `sell` and `buyout`), or by name in Russian, English or Ukrainian (or
the card id), in any case, by a unique start of the name or of one of its words; a Russian or
Ukrainian word in another case («агитку») is found by its stem. Players by a unique start of their
name. Side words: for / за / players / игрокам — the players; against / против / opponent /
противнику — the opponent.

  draw | тянуть                         the face-up draw; in the choose step, the 2nd card face down
  fight CARD | бой КАРТА                fight an opponent from your hand
  flee | бежать, pass | пас, done       done for now in a fight or counter window (a lost fight
                                        rolls the escape for you)
  end | конец                           end the turn (done also ends it when nothing else waits)
  drop CARD | сбросить КАРТА            discard a hand card (choose and end steps)
  sell CARD... | продать КАРТА...       sell loot (hand or equipment) for levels
  equip CARD | надеть КАРТА             wear an item
  enlist CARD | вступить КАРТА          put a class or party card on the table
  play CARD [for|against] [NAME ITEM]   any card: one-shot cards, items, class/party, counters
  hinder CARD [TEXT] | помешать         a fight card (or a speech) for the opponent
  speech [CARD] [for|against] TEXT      read a speech in a fight (the card may be found by its text)
  offer [NAME] SHARE | предложить       offer to help the fighter for SHARE loot cards
  accept [NAME] | принять               take a help offer (in a fight) or a trade offered to you
  trade NAME give CARD... [for CARD...] | обмен ИМЯ даю КАРТА... [за КАРТА...]
                                        offer priced cards (hand or equipment) for the other's
                                        priced cards, or as a gift (no `for`); not in a fight
  decline [NAME] | отклонить            refuse a trade offered to you
  withdraw | отозвать, trade off        take back your open trade offer
  revolt [CARD] | революция             play a revolution card
  counter [CARD] | контра               play the counter-revolution of the open window
  arrest NAME CARD N | арест ИМЯ КАРТА N   ruling party: discard CARD, secret number N (1-6)
  roll | бросить                        in jail: the die (5-6: free)
  buyout [CARD...] | откуп              leave jail for loot worth 500 roubles
  unequip | снять                       explains: items come off only when replaced or sold
"""
from __future__ import annotations

from typing import Any

from commands.base import CommandError, Ctx, command
from commands.table import game_action
from world.presenters.revolution import deck_of, localize_params

from .revolution_deals import (
    WITHDRAW_VERBS, WITHDRAW_WORDS, parse_accept, parse_arrest, parse_offer, parse_trade, parse_trade_answer,
    parse_withdraw,
)
from .revolution_parse import (
    parse_buyout, parse_done, parse_draw, parse_drop, parse_end, parse_enlist, parse_equip, parse_fight, parse_play,
    parse_roll, parse_sell, parse_speech,
)
from .revolution_seat import Seat, arg_words
from .revolution_words import GAME, fold, tokens


async def act(ctx: Ctx, seat: Seat | None, action: dict[str, Any]) -> None:
    """Send the action; the engine's rule errors come back with card names in the reader's language."""
    try:
        await game_action(ctx, action)
    except CommandError as err:
        message = err.message
        if message.key.startswith("revolution."):
            deck = seat.deck if seat is not None else deck_of("default")
            raise CommandError(message.key, **localize_params(message.params, deck)) from err
        raise


# -- the commands --------------------------------------------------------------------------------

@command("draw", "тянуть", "тяну", "вытянуть", "взять", "беру", "тягнути", "тягну", "витягнути",
         game=GAME)
async def draw(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_draw(seat, ctx.args))


@command("fight", "бой", "биться", "драться", "сразиться", "бій", "битися", game=GAME)
async def fight(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_fight(seat, ctx.args))


@command("done", "pass", "пас", "пасс", "пропуск", "готов", "готова", "готово", "дальше", "далее",
         "ready", "refuse", "отказать", "отказ", "готовий", "далі", "відмовити", game=GAME)
async def done(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_done(seat, ctx.args))


@command("flee", "бежать", "сбежать", "убежать", "бегу", "тікати", "втекти", "run", game=GAME)
async def flee(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_done(seat, ctx.args))


@command("end", "конец", "закончить", "завершить", "кінець", "завершити", "закінчити", game=GAME)
async def end(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_end(seat, ctx.args))


@command("drop", "discard", "сбросить", "сброс", "скинуть", "скинути", "викинути", "выбросить", game=GAME)
async def drop(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_drop(seat, ctx.args))


@command("sell", "продать", "продаю", "продати", game=GAME)
async def sell(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_sell(seat, ctx.args))


@command("equip", "wear", "надеть", "одеть", "надеваю", "вооружиться", "вдягнути", "одягнути", game=GAME)
async def equip(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_equip(seat, ctx.args))


@command("unequip", "снять", "зняти", "remove", game=GAME)
async def unequip(ctx: Ctx) -> None:
    raise CommandError("revolution.cmd.no_unequip")


@command("enlist", "place", "вступить", "стать", "положить", "вступити", "стати", "покласти", game=GAME)
async def enlist(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_enlist(seat, ctx.args))


@command("play", "use", "сыграть", "играть", "играю", "применить", "зіграти", "грати", "застосувати",
         game=GAME, completes=("player",))
async def play(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_play(seat, ctx.rest))


@command("hinder", "помешать", "мешать", "мешаю", "завадити", "заважати", game=GAME)
async def hinder(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_play(seat, ctx.rest, hinder=True))


@command("speech", "речь", "промова", "промову", "speak", game=GAME)
async def speech(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_speech(seat, ctx.rest))


@command("offer", "предложить", "предлагаю", "помочь", "запропонувати", "допомогти", game=GAME,
         completes=("player",))
async def offer(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_offer(seat, ctx.args))


@command("accept", "принять", "принимаю", "прийняти", "приймаю", game=GAME, completes=("player",))
async def accept(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_accept(seat, ctx.args))


@command("trade", "swap", "обмен", "обменять", "обменяться", "обмін", "обміняти", "міняю", "withdraw",
         "отозвать", "забрати", game=GAME, completes=("player",))
async def trade(ctx: Ctx) -> None:
    seat = Seat(ctx)
    if fold(ctx.verb) in WITHDRAW_VERBS or [fold(w) for w in ctx.args] in ([w] for w in WITHDRAW_WORDS):
        await act(ctx, seat, parse_withdraw(seat, ctx.args))
        return
    await act(ctx, seat, parse_trade(seat, ctx.rest))


@command("decline", "reject", "отклонить", "отвергнуть", "відхилити", game=GAME, completes=("player",))
async def decline(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_trade_answer(seat, ctx.args, "trade_decline"))


@command("revolt", "революция", "революція", "восстание", "повстання", game=GAME)
async def revolt(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_play(seat, ctx.rest, only=("revolution",)))


@command("counter", "контра", "контрреволюция", "контрреволюція", game=GAME)
async def counter(ctx: Ctx) -> None:
    seat = Seat(ctx)
    pool = [a["card"] for a in seat.of_type("play")
            if seat.deck is not None and seat.deck.cards[a["card"]].effect("counter")]
    if seat.view.get("stage") != "counter":
        raise CommandError("revolution.cmd.no_counter_window")
    if not pool:
        raise CommandError("revolution.cmd.no_counter_card")
    await act(ctx, seat, {"type": "play", "card": seat.one_card(arg_words(ctx.args), pool)})


@command("arrest", "арест", "арестовать", "арестую", "арешт", "заарештувати", game=GAME, completes=("player",))
async def arrest(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_arrest(seat, ctx.args))


@command("roll", "бросить", "бросок", "кубик", "кинуть", "кинути", "кидок", game=GAME)
async def roll(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_roll(seat, ctx.args))


@command("buyout", "откуп", "откупиться", "выкуп", "выкупиться", "викуп", "відкупитися", game=GAME)
async def buyout(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, seat, parse_buyout(seat, ctx.args))


__all__ = ["Seat", "parse_draw", "parse_fight", "parse_end", "parse_done", "parse_drop", "parse_sell",
           "parse_buyout", "parse_roll", "parse_equip", "parse_enlist", "parse_play", "parse_speech",
           "parse_offer", "parse_accept", "parse_arrest", "parse_trade", "parse_trade_answer", "parse_withdraw",
           "fold", "tokens"]
