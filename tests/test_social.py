"""Safety and conversation over real telnet and SSH: `ignore` across the two doors (stored on the
account, so it outlives a restart; game moves still arrive), `reply` to the last teller (also
one who told you while you were away, after a restart: from the inbox), `afk` in `who` and to
whoever tells you, until the next command."""
from __future__ import annotations

import re

from tests.wire import person

ADMIN = '[accounts]\nadmins = ["Борис"]'  # an admin can be ignored, but not his moderation
HAND = re.compile(r"ваши карты — ([\d, ]+)\.")


async def test_ignore_reply_and_afk_across_doors(server_factory, tmp_path):
    data = tmp_path / "data"
    srv = server_factory(ADMIN, data_dir=data)
    anna = await person(srv, "telnet", "Анна")
    boris = await person(srv, "ssh", "Борис")
    vera = await person(srv, "telnet", "Вера", lang="en")

    anna.send_line("ответить привет")
    await anna.expect("Вам ещё никто не шептал: отвечать некому")
    anna.send_line("игнор Анна")
    await anna.expect("Себя игнорировать нельзя.")
    anna.send_line("игнор Борис")
    await anna.expect("Вы больше не слышите Бориса")
    for other in ("Яков", "Ёлка"):  # the list in a Russian reader's order: Ё beside Е, not after Я
        await (await person(srv, "ssh", other)).close()
        anna.send_line(f"игнор {other}")
        await anna.expect("Вы больше не слышите")
    anna.send_line("игнор")
    await anna.expect("Вы игнорируете: Борис, Ёлка, Яков.")
    anna.send_line("слушать Яков")
    anna.send_line("слушать Ёлка")
    await anna.expect("Ёлк")
    anna.send_line("шепнуть Борис эй")  # an answer would not reach her: refused, and said why
    await anna.expect("Вы игнорируете Бориса и ответа не услышите")

    # Boris (SSH) talks; Vera hears each line, Anna (telnet) none; his tell reads as delivered.
    anna.mark_here()
    boris.send_line("сказать привет всем")
    await vera.expect("Борис says: «привет всем»")
    boris.send_line("эмоция машет рукой")
    await vera.expect("* Борис машет рукой")
    boris.send_line("шепнуть Анна секрет")
    await boris.expect("Вы шепчете Анне: «секрет»")
    vera.send_line("say отметка")
    await anna.expect("Вера говорит: «отметка»")  # after Boris's lines, in order
    heard = anna.text_since_mark()
    for line in ("привет всем", "машет рукой", "секрет", "Борис"):
        assert line not in heard, heard
    assert "игнор" not in boris.text  # he is not told

    # Away: beside the name in `who`, told to a teller; Anna's `r` (any command) brings her back.
    anna.send_line("отошёл обедаю")
    await anna.expect("Вы отошли («обедаю»)")
    vera.send_line("who")
    await vera.expect("Анна (away: обедаю)")
    vera.send_line("tell Анна are you there?")
    await vera.expect('Анна is away: "обедаю".')
    await anna.expect("Вера шепчет вам: «are you there?»")
    anna.send_line("r уже тут")
    await anna.expect("Вы снова на месте.")
    await anna.expect("Вы шепчете Вере: «уже тут»")
    await vera.expect("Анна tells you: «уже тут»")
    vera.send_line("reply " + "я" * 2000)  # the line limit holds for reply as for tell
    await vera.expect("That line is too long (over 2000 characters)")
    vera.send_line("reply good")
    await anna.expect("Вера шепчет вам: «good»")
    assert "яяяя" not in anna.text
    vera.mark_here()
    vera.send_line("who")
    await vera.expect("Борис")
    await vera.settle(0.3)
    assert "away" not in vera.text_since_mark()

    # Boris leaves; Vera's tell waits in his inbox; the server restarts.
    await boris.close()
    await vera.expect("Борис leaves the tavern")  # the server has seen him go
    vera.send_line("tell Борис back soon?")
    await vera.expect("waits in their inbox")
    for client in (anna, vera):
        await client.close()
    assert srv.terminate() == 0

    srv = server_factory(ADMIN, data_dir=data)
    anna = await person(srv, "telnet", "Анна", create=False)
    vera = await person(srv, "telnet", "Вера", lang="en", create=False)
    boris = await person(srv, "ssh", "Борис")
    boris.send_line("ответить да")  # to Vera: the newest tell in his inbox
    await boris.expect("Вы шепчете Вере: «да»")
    await vera.expect("Борис tells you: «да»")

    # The ignore was stored on Anna's account; his moderation and his game moves still reach her.
    anna.mark_here()
    anna.send_line("игнор Борис")
    await anna.expect("Бориса вы уже игнорируете.")
    anna.send_line("почта")  # his tell was kept nowhere; Vera's is there
    await anna.expect("are you there?")
    boris.send_line("mute Анна 5m")
    await anna.expect("Вы лишены слова на 5 минут")
    boris.send_line("открыть торги rounds=3")
    number = int(re.search(r"стол (\d+)", await boris.expect(re.compile(r"открываете стол \d+"))).group(1))
    await anna.expect(f"стол {number}")  # the hall's notice of a new table is not his talk
    anna.send_line(f"сесть {number}")
    await anna.expect("Вы садитесь")
    boris.send_line("начать")
    hand_a = [int(x) for x in HAND.search(await anna.expect(HAND, 10)).group(1).replace(" ", "").split(",")]
    hand_b = [int(x) for x in HAND.search(await boris.expect(HAND, 10)).group(1).replace(" ", "").split(",")]
    boris.send_line("сказать за столом тихо")
    await boris.expect("Вы говорите: «за столом тихо»")
    boris.send_line(f"ставка {hand_b[0]}")
    await boris.expect(f"ставка {hand_b[0]} принята")
    anna.send_line(f"ставка {hand_a[0]}")
    await anna.expect(f"Борис ставит {hand_b[0]}")  # his move reached her
    heard = anna.text_since_mark()
    assert "за столом тихо" not in heard and "секрет" not in heard, heard

    anna.send_line("слушать Борис")
    await anna.expect("Вы снова слышите Бориса.")
    boris.send_line("сказать снова слышно")
    await anna.expect("Борис говорит: «снова слышно»")
    for client in (anna, boris, vera):
        await client.close()
