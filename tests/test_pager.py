"""The pager over real doors, one server for all: a command's output taller than the screen
stops at «-- ещё: Enter, q --» on telnet (NAWS 80x24) and on an SSH pty of 80x24; Enter goes on,
q (or й) stops, another command ends paging and runs; a hall line said meanwhile is shown, not
lost; a client without NAWS gets the text whole; `pagelength 0` turns paging off."""
from __future__ import annotations

from tests.ssh_client import connect
from tests.telnet_client import log_in

PAGER = "[server]\npager = true\n"
MORE = "-- ещё: Enter, q --"
LAST = "Параметры (открыть мафия"  # the start of the last section of `правила мафия` (ru)


async def _enter_until(client, text: str, most: int) -> int:
    """Press Enter under the page prompt until ``text`` shows; how many presses it took."""
    for presses in range(1, most + 1):
        client.send_line("")
        await client.settle(0.3)
        if text in client.text_since_mark():
            return presses
    raise AssertionError(f"{text!r} not seen after {most} pages")


async def test_pager_telnet_and_ssh(server_factory):
    srv = server_factory(PAGER)
    anna = await log_in(srv.telnet_port, "Анна", naws=(80, 24))
    boris = await log_in(srv.telnet_port, "Борис", naws=None)  # never says its size
    vera = await connect(srv.ssh_port, "Вера", password="secret1", width=80, height=24)
    try:
        await vera.expect("Вера")
        await boris.settle(0.2)
        # No NAWS, no pagelength: the whole text at once, as before.
        boris.send_line("правила мафия")
        await boris.expect(LAST)
        assert MORE not in boris.text_since_mark()

        # Telnet, NAWS 80x24: the first page is the screen less the prompt's line.
        anna.send_line("правила мафия")
        start = anna.mark
        await anna.expect(MORE)
        page = anna.text[start:anna.mark].split("\r\n")
        assert page[-1] == MORE and len(page) == 24, page
        assert "Мафия" in page[0] or "Разделы" in page[0]
        await anna.settle(0.3)
        assert LAST not in anna.text_since_mark()

        # A hall line said while the page waits is shown at once, the page prompt again after it.
        boris.send_line("сказать привет всем")
        await anna.expect("привет всем")
        await anna.expect(MORE)
        assert await _enter_until(anna, LAST, 6) >= 2  # ~70 lines at 80 columns: three or four pages

        # q stops: the rest is not shown, and the ordinary prompt is back.
        anna.send_line("правила мафия")
        await anna.expect(MORE)
        anna.send_line("q")
        await anna.settle(0.4)
        assert LAST not in anna.text_since_mark() and MORE not in anna.text_since_mark()
        # Another command under a page ends paging and runs.
        anna.send_line("правила мафия")
        await anna.expect(MORE)
        anna.send_line("кто")
        await anna.expect("Борис")
        await anna.settle(0.3)
        assert LAST not in anna.text_since_mark()
        anna.send_line("длинастраницы")
        await anna.expect("Длина страницы — по вашему экрану: сейчас 23 строки.")

        # SSH with an 80x24 pty: the same, and й (q on a Russian keyboard) stops too.
        vera.send_line("правила мафия")
        await vera.expect(MORE)
        await vera.settle(0.3)
        assert LAST not in vera.text_since_mark()
        assert any(MORE in line for line in vera.screen.text_lines())
        boris.send_line("сказать кто читает правила?")  # above the page prompt, which stays
        await vera.expect("кто читает правила?")
        await vera.settle(0.3)
        lines = [line for line in vera.screen.text_lines() if line.strip()]
        assert MORE in lines[-1] and "кто читает правила?" in lines[-2], lines[-3:]
        assert await _enter_until(vera, LAST, 6) >= 2
        vera.send_line("правила мафия")
        await vera.expect(MORE)
        vera.send_line("й")
        await vera.settle(0.4)
        assert LAST not in vera.text_since_mark()
        # The window grows (SSH window-change): 100 rows hold the whole text.
        vera.resize(80, 100)
        await vera.settle(0.2)
        vera.send_line("правила мафия")
        await vera.expect(LAST)
        assert MORE not in vera.text_since_mark()
        vera.send_line("длинастраницы")
        await vera.expect("Длина страницы — по вашему экрану: сейчас 99 строк.")
        # `длинастраницы 0`: never paged, whatever the screen says.
        vera.resize(80, 24)
        vera.send_line("длинастраницы 0")
        await vera.expect("Постраничный вывод выключен")
        vera.send_line("правила мафия")
        await vera.expect(LAST)
        assert MORE not in vera.text_since_mark()
        # ...and a length of one's own pages even a client without NAWS.
        boris.send_line("длинастраницы 10")
        await boris.expect("Длина страницы: 10 строк.")
        boris.send_line("правила мафия")
        start = boris.mark
        await boris.expect(MORE)
        assert len(boris.text[start:boris.mark].split("\r\n")) == 11

        # `rules GAME SECTION`: that section alone, asked in Russian or in English; the whole
        # text starts with its list of sections; an unknown section is one line.
        for client in (boris, vera):
            client.send_line("длинастраницы 0")
            await client.settle(0.2)
            client.send_line("правила переворот команды")
            await client.expect("Команды.")
            await client.settle(0.3)
            assert "Подготовка." not in client.text_since_mark()
            client.send_line("rules coup setup")
            await client.expect("Подготовка.")
            await client.settle(0.3)
            assert "Команды." not in client.text_since_mark()
            client.send_line("правила мафия")
            start = client.mark
            await client.expect(LAST)
            listed = client.text[start:client.mark]
            assert listed.index("Разделы: 1 Заявка на игру") < listed.index("форумная Мафия")
            client.send_line("правила мафия б команды")  # version B, its commands section
            await client.expect("Команды")
            client.send_line("правила переворот погода")
            await client.expect("В правилах переворот нет раздела «погода». Разделы: 1 Подготовка")
            # `help`: the newcomer's line first, hall and tables before the account's settings.
            client.send_line("помощь")
            start = client.mark
            await client.expect("Темы:")
            shown = client.text[start:client.mark]
            assert shown.index("Новичку:") < shown.index("Зал") < shown.index("Столы") \
                < shown.index("Ваш счёт и настройки")
            assert shown.index("столы") < shown.index("пароль") and shown.index("кто") < shown.index("ключи")
    finally:
        await anna.close()
        await boris.close()
        await vera.close()
