"""The chat channel and the scrollback over real telnet and SSH (commands/channels.py,
commands/recall.py): the channel heard in the hall, by players seated in a running game and by a
watcher; leaving and rejoining it (stored on the account: it outlives a restart, the scrollback
does not); a moderator's channel mute; ignore applied to channel lines and to scrollback; the
hall's last lines on entering it, with times; `recall` for the hall, the channel and the table;
and no tell ever in any scrollback."""
from __future__ import annotations

import asyncio
import re

from tests.wire import open_table, person

ADMIN = '[accounts]\nadmins = ["Борис"]'
SECRETS = ("секрет-раз", "секрет-два", "secret-three")


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, text


async def test_chat_channel_and_scrollback_over_both_doors(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory(ADMIN, data_dir=data)
    anna = await person(srv, "telnet", "Анна")
    boris = await person(srv, "ssh", "Борис")  # an admin: he moderates
    vera = await person(srv, "telnet", "Вера", lang="en")
    grisha = await person(srv, "ssh", "Гриша", lang="uk")

    # `help` lists the new verbs among the hall's, in the reader's language.
    grisha.send_line("допомога")
    await grisha.expect("chat, балакати: канал «балачки»")
    await grisha.expect("recall, історія чату: минулі репліки")
    boris.send_line("help chanmute")
    await boris.expect("заглушить канал КАНАЛ ИМЯ [СРОК] [ПРИЧИНА]")

    # In the hall: a line for the scrollback and a tell that must never be in one.
    boris.send_line("сказать добрый вечер, зал")
    await anna.expect("Борис говорит: «добрый вечер, зал»")
    vera.send_line("tell Анна секрет-раз")
    await anna.expect("секрет-раз")

    # Anna and Vera sit down and start a game; Grisha watches it.
    number = await open_table(anna, "открыть торги rounds=3 seconds=600")
    vera.send_line(f"join {number}")
    await vera.expect("You sit down")
    grisha.send_line(f"спостерігати {number}")
    await grisha.expect(f"{number}")
    anna.send_line("начать")
    await vera.expect(re.compile(r"bid", re.I), timeout=10)
    vera.send_line("say ставлю немного")
    await anna.expect("Вера говорит: «ставлю немного»")
    anna.send_line("шепнуть Вера секрет-два")
    await vera.expect("секрет-два")

    # The channel: from the hall (SSH) to the seated players and the watcher, in their languages.
    boris.send_line("болтать всем привет")
    await boris.expect("[болталка] Борис: всем привет")
    await anna.expect("[болталка] Борис: всем привет")
    await vera.expect("[chat] Борис: всем привет")
    await grisha.expect("[балачки] Борис: всем привет")
    vera.send_line("chat hi from table " + str(number))  # and from a table to the hall
    await boris.expect(f"[болталка] Вера: hi from table {number}")
    await grisha.expect(f"[балачки] Вера: hi from table {number}")

    # Leaving and rejoining: Vera leaves; Boris's next line skips her; she cannot speak there.
    vera.send_line("chat off")
    await vera.expect("You no longer hear the chat channel. To come back: chat on.")
    vera.send_line("channels")
    await vera.expect("chat (chat): not listening")
    at = len(vera.text)
    boris.send_line("болтать без Веры")
    await anna.expect("[болталка] Борис: без Веры")
    vera.send_line("chat can I?")
    await vera.expect("You have left the chat channel: to speak there, come back first (chat on).")
    assert "без Веры" not in vera.text[at:], vera.text[at:]
    vera.send_line("chat on")
    await vera.expect("You hear the chat channel again.")
    boris.send_line("болтать с Верой")
    await vera.expect("[chat] Борис: с Верой")

    # A moderator's channel mute: one clear line to the muted; he still hears and may `say`.
    boris.send_line("заглушить канал болтать Гриша 5м флуд")
    await boris.expect("Гриша не может говорить в канале «болталка» 5 минут.")
    await grisha.expect("Модератор заборонив вам говорити в каналі «балачки» на 5 хвилин. Причина: флуд")
    grisha.send_line("балакати привіт")
    await grisha.expect("Вам заборонено говорити в каналі «балачки» ще 5 хвилин. Причина: флуд")
    grisha.send_line("канали")
    await grisha.expect("балачки (chat): слухаєте; говорити не можна до ")
    anna.send_line("болтать Гриша, ты здесь?")
    await grisha.expect("[балачки] Анна: Гриша, ты здесь?")
    await asyncio.sleep(0.5)  # (Boris has typed fast: keep clear of the flood guard)
    boris.send_line("разглушить канал болтать Гриша")
    await boris.expect("Гриша снова может говорить в канале «болталка».")
    await grisha.expect("Ви знову можете говорити в каналі «балачки».")
    grisha.send_line("балакати тепер можу")
    await anna.expect("[болталка] Гриша: тепер можу")

    # Ignore applies to channel lines: Anna ignores Grisha; Boris still hears him.
    anna.send_line("игнор Гриша")
    await anna.expect("Вы больше не слышите Гришу")
    at = len(anna.text)
    grisha.send_line("балакати Анно, чуєш?")
    await boris.expect("[болталка] Гриша: Анно, чуєш?")
    boris.send_line("болтать отметка")
    await anna.expect("[болталка] Борис: отметка")
    assert "чуєш" not in anna.text[at:], anna.text[at:]

    # The length limit and the flood guard hold for the channel as for every line.
    anna.send_line("болтать " + "я" * 2001)
    await anna.expect("Строка слишком длинная")

    # recall: the table (seated, SSH watcher), the channel without the ignored; no tell anywhere.
    anna.mark_here()
    anna.send_line("история чата стол")
    await anna.expect(re.compile(rf"Стол {number}: последняя реплика \(время UTC\):\s+\[\d\d:\d\d\] Вера говорит: «ставлю немного»"))
    grisha.mark_here()
    grisha.send_line("історія стіл")
    await grisha.expect(re.compile(r"\[\d\d:\d\d\] Вера каже: «ставлю немного»"))
    at = len(anna.text)
    anna.send_line("история болтать")
    await anna.expect(re.compile(r"Канал «болталка»: последние 6 реплик \(время UTC\):"))
    await anna.expect(re.compile(r"\[\d\d:\d\d\] \[болталка\] Борис: отметка"))
    assert "Борис: всем привет" in anna.text[at:]
    assert "Гриша:" not in anna.text[at:], anna.text[at:]  # his lines are filtered from what she sees
    boris.mark_here()
    boris.send_line("recall chat 50")
    await boris.expect(re.compile(r"\[\d\d:\d\d\] \[болталка\] Гриша: Анно, чуєш\?"))
    boris.send_line("recall table")
    await boris.expect("Вы не за столом: история стола видна только тем, кто за ним.")

    # Standing up from the table is entering the hall: its last lines, with their times.
    anna.send_line("встать")
    await anna.expect(re.compile(r"Последняя реплика в зале \(время UTC\):\s+\[\d\d:\d\d\] Борис говорит: «добрый вечер, зал»"))
    # A login to the hall (a new player, telnet): the same, then `recall` shows the hall.
    dima = await person(srv, "telnet", "Dima", lang="en")
    assert re.search(r"Последняя реплика в зале \(время UTC\):\s+\[\d\d:\d\d\] Борис говорит: «добрый вечер, зал»",
                     dima.text), dima.text
    dima.send_line("recall")
    await dima.expect(re.compile(r"The hall: the last line \(times in UTC\):\s+\[\d\d:\d\d\] Борис says: «добрый вечер, зал»"))
    dima.send_line("recall chat")
    await dima.expect("[chat] Борис: отметка")
    dima.send_line("recall moon")
    await dima.expect("Whose history? moon is none I know.")
    dima.send_line("tell Анна secret-three")
    await anna.expect("secret-three")

    # Every scrollback each of them can read, in full: no tell is in any.
    recalled = []
    for client, lines, done in ((anna, ("история болтать 100", "история зал 100"), "Зал: последн"),
                                (boris, ("recall chat 100", "recall hall 100"), "Зал: последн"),
                                (dima, ("recall chat 100", "recall hall 100"), "The hall: the last"),
                                (grisha, ("історія балачки 100", "історія зала 100", "історія стіл 100"), f"Стіл {number}:"),
                                (vera, ("recall chat 100", "recall hall 100", "recall table 100"), f"Table {number}:")):
        await asyncio.sleep(0.3)  # (keep clear of the flood guard)
        at = len(client.text)
        for line in lines:
            client.send_line(line)
        await client.expect(done)
        await client.settle(0.2)
        recalled.append(client.text[at:])
    assert_no_secret(*recalled)
    assert all("(UTC" in text or "(times in UTC" in text or "(час UTC" in text or "(время UTC" in text
               for text in recalled), recalled
    log = srv.log()
    assert "event=channel_mute by=Борис name=Гриша channel=chat until=" in log
    assert "event=channel_unmute by=Борис name=Гриша channel=chat" in log

    # Vera leaves the channel and the server restarts: the choice stays, the scrollback does not.
    vera.send_line("chat off")
    await vera.expect("You no longer hear the chat channel.")
    for client in (anna, boris, vera, grisha, dima):
        await client.close()
    assert srv.terminate() == 0
    srv = server_factory(ADMIN, data_dir=data)
    vera = await person(srv, "ssh", "Вера", lang="en")
    vera.send_line("channels")
    await vera.expect("chat (chat): not listening")
    vera.send_line("recall chat")
    await vera.expect("The chat channel: nobody has said anything here since the server started.")
    await vera.close()


def test_scrollback_rings_are_bounded_and_keep_the_hall_and_channels():
    """No server: a ring keeps its last N lines; past PLACES_KEPT places the table heard least
    recently goes, never the hall or a channel; a reader's ignored senders are left out."""
    from world.messages import msg
    from world.scrollback import PLACES_KEPT, Scrollback, channel_place

    back = Scrollback(3)
    back.add("hall", 1, msg("say.other", name="A", text="old"))
    back.add(channel_place("chat"), 2, msg("say.other", name="B", text="chat"))
    for n in range(PLACES_KEPT + 5):
        back.add(f"table:{n}", 1, msg("say.other", name="A", text=str(n)))
    for text in ("a", "b", "c", "d"):
        back.add("hall", 2 if text == "c" else 1, msg("say.other", name="A", text=text))
    assert [line.message.params["text"] for line in back.last("hall", 10)] == ["b", "c", "d"]
    assert [line.message.params["text"] for line in back.last("hall", 10, skip_senders={2})] == ["b", "d"]
    assert [line.message.params["text"] for line in back.last(channel_place("chat"), 5)] == ["chat"]
    assert back.last("table:0", 5) == [] and back.last(f"table:{PLACES_KEPT + 4}", 5)
    assert Scrollback(0).last("hall", 5) == []


def test_the_new_verbs_take_no_short_start_players_already_use():
    """No server: `ch` at a Coup table is still challenge, `бо` still боты, `ка` still казати;
    the new verbs answer to a start of four letters or more (commands/base.py NEW_PREFIX)."""
    import commands.load_all  # noqa: F401
    from commands import parser
    from commands.base import GAME, HALL, REGISTRY, TABLE

    def key(verb: str, contexts: set[str], game: str | None = None) -> str | None:
        cmd, _ = parser.resolve(verb, parser._available(frozenset(contexts), "player", game, len(REGISTRY)))
        return cmd.key if cmd else None

    assert key("ch", {TABLE, GAME}, "coup") == key("cha", {TABLE, GAME}, "coup") == "challenge"
    assert key("бо", {TABLE}) == "bots" and key("ка", {HALL}) == "say" and key("c", {HALL}) == "color"
    assert key("болт", {HALL}) == key("бала", {TABLE, GAME}, "coup") == "chat"
    # `история` is the games played since issue 18; `история чата` (whole) and `reca` are recall.
    assert key("исто", {HALL}) == "history" and key("reca", {HALL}) == "recall" and key("кана", {HALL}) == "channels"
