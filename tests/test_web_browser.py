"""The web page in a real browser: Debian's headless Chromium, driven by selenium through Debian's
chromedriver, against a real server, beside a real telnet user. Skipped (tests/services.py
``missing``: a failure where .ci/run installed everything) when Chromium or its driver is absent;
`apt-get install chromium chromium-driver` brings them."""
from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.services import missing
from tests.telnet_client import log_in

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# The web door on any free port. The page's buttons answer as fast as the test clicks, within
# the 1.5 s in which a repeated typed answer is taken for a slip (tables.answer_guard): a person
# is not that quick twice over, the test is, so the guard is off here.
WEB = """
[web]
port = 0

[tables]
answer_guard = 0
"""
#: The buttons the player prefers, by the start of the line they type.
PREFERRED = ("coup ", "bid ", "allow", "prove", "tax", "income", "lose ", "keep ", "show ", "return", "concede")


@pytest.fixture
def browser(tmp_path):
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")) or not Path(CHROMEDRIVER).exists():
        missing("no Chromium here: apt-get install chromium chromium-driver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing("selenium is not installed (pip install -e '.[test]')")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,900", "--lang=en-US", f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


class Page:
    """The browser, called from the test's event loop without blocking it (selenium is sync)."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    async def js(self, script: str, *args: Any) -> Any:
        return await asyncio.to_thread(self.driver.execute_script, script, *args)

    async def output(self) -> str:
        return await self.js("return document.getElementById('output').innerText")

    async def wait_text(self, needle: str, timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while needle not in await self.output():
            assert loop.time() < deadline, f"{needle!r} not on the page:\n{(await self.output())[-2000:]}"
            await asyncio.sleep(0.1)

    async def type(self, text: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys

        field = await asyncio.to_thread(self.driver.find_element, By.ID, "line")
        await asyncio.to_thread(field.send_keys, text + Keys.ENTER)

    async def click(self, line: str) -> None:
        from selenium.webdriver.common.by import By

        buttons = await asyncio.to_thread(self.driver.find_elements, By.CSS_SELECTOR, "#answers button")
        for button in buttons:
            if await asyncio.to_thread(button.get_attribute, "data-line") == line:
                await asyncio.to_thread(button.click)
                return
        raise AssertionError(f"no button {line!r}")

    async def screenshot(self, path: Path) -> None:
        await asyncio.to_thread(self.driver.save_screenshot, str(path))


# What the page holds and shows of the game: its seat, its buttons, and every card drawn in the
# DOM with the seat it belongs to and whether it is face up.
STATE = """
const k = window.korchma, a = k.awaiting;
return {
  seat: k.view ? k.view.seat : null, ended: !!k.ended, echo: k.echo,
  since: a ? a.since : null, kind: a ? a.kind : null,
  buttons: [...document.querySelectorAll('#answers button')].map(b => b.dataset.line),
  waits_shown: !document.getElementById('panel-waits').hidden,
  cards: [...document.querySelectorAll('.card')].map(c => ({seat: c.dataset.seat, up: c.classList.contains('up'),
                                                              text: c.textContent, key: c.dataset.key})),
  hand: k.view && k.view.view.hand ? k.view.view.hand : null,
  foreign: JSON.stringify(k.view || {}).includes('"hands"'),
};
"""


async def phone(page: Page, path: Path) -> None:
    """Readable on a phone: one column, the input line and the answer buttons on the screen."""
    await asyncio.to_thread(page.driver.set_window_size, 390, 844)
    box = await page.js("const r = (id) => document.getElementById(id).getBoundingClientRect();"
                        "return {line: r('line').right, line_bottom: r('line').bottom, top: r('panel-waits').top, waits: r('panel-waits').bottom, height: r('panel-waits').height,"
                        " width: window.innerWidth, tall: window.innerHeight}")
    assert box["line"] <= box["width"] and box["line_bottom"] <= box["tall"], box
    assert 0 < box["height"] and 0 <= box["top"] and box["waits"] <= box["tall"], box
    await page.screenshot(path)
    await asyncio.to_thread(page.driver.set_window_size, 1200, 900)


async def play_through(page: Page, tmp_path: Path, shots: bool) -> tuple[int, bool]:
    """Answer every question with a button until the game ends; at every step, check that the
    page holds and shows no card of another seat but face-up ones. Returns (clicks, shot)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    answered: set[Any] = set()
    shot = not shots
    clicks = 0
    await page.js("window.korchma.ended = null")
    while True:
        state = await page.js(STATE)
        assert not state["foreign"], "another seat's hand reached the page"
        for card in state["cards"]:  # only this seat's own cards face down, others' face up only
            assert card["up"] or card["seat"] == str(state["seat"]), f"a hidden card of another seat: {card}"
        if state["hand"] is not None:
            mine = [c for c in state["cards"] if not c["up"]]
            assert sorted(c["key"] for c in mine) == sorted(map(str, state["hand"]))
            # Named in the player's language (English here), not by the engine's keys.
            assert all(c["text"] == c["key"].capitalize() for c in mine if not c["key"].isdigit()), mine
        if state["ended"]:
            return clicks, shot
        assert loop.time() < deadline, "the game did not end in time"
        if state["waits_shown"] and state["buttons"] and state["since"] not in answered:
            if not shot:
                countdown = await page.js("return document.getElementById('countdown').textContent")
                assert re.fullmatch(r"\d+:\d\d", countdown), countdown  # the deadline, counting down
                await page.screenshot(tmp_path / "web-mid-game.png")
                await phone(page, tmp_path / "web-phone.png")
                shot = True
            answered.add(state["since"])
            await page.click(choose(state["buttons"]))
            clicks += 1
        await asyncio.sleep(0.25)  # at most 4 lines a second: the flood guard allows 5


def choose(buttons: list[str]) -> str:
    for start in PREFERRED:
        for line in buttons:
            if line.startswith(start):
                return line
    return buttons[0]


async def test_browser_login_chat_and_a_coup_game_through_the_buttons(server_factory, browser, tmp_path):
    srv = server_factory(WEB)
    page = Page(browser)
    await asyncio.to_thread(browser.get, f"http://127.0.0.1:{srv.web_port}/")
    # A new account, from the page's input line, in the browser's language (English here).
    await page.wait_text("name")
    await page.type("Webster")
    await page.wait_text("password")
    assert await page.js("return document.getElementById('line').type") == "password"
    await page.type("secret1")
    await page.wait_text("Repeat the password")
    await page.type("secret1")
    await page.wait_text("Welcome")
    assert await page.js("return document.getElementById('line').type") == "text"
    assert "secret1" not in await page.output()
    assert await page.js("return document.querySelector('[data-word=send]').title") == "Send"
    # The room panel, from GMCP: Webster in the hall.
    anna = await log_in(srv.telnet_port, "Анна")
    await page.wait_text("Анна")
    people = await page.js("return document.getElementById('people').innerText")
    assert "Webster" in people
    assert await page.js("return document.getElementById('room-name').textContent") == "The hall"
    # Chat both ways with a telnet user; history: Up brings the last line back.
    await page.type("say good evening from the browser")
    await anna.expect("good evening from the browser")
    anna.send_line("говорить и тебе добрый вечер")
    await page.wait_text("и тебе добрый вечер")
    from selenium.webdriver.common.keys import Keys

    field = await asyncio.to_thread(browser.find_element, "id", "line")
    await asyncio.to_thread(field.send_keys, Keys.ARROW_UP)
    assert await page.js("return document.getElementById('line').value") == "say good evening from the browser"
    await asyncio.to_thread(field.clear)
    # Tab completes a verb at the start of the line, and a name after it.
    await asyncio.to_thread(field.send_keys, "sa" + Keys.TAB)
    assert await page.js("return document.getElementById('line').value") == "say "
    await asyncio.to_thread(field.clear)
    await asyncio.to_thread(field.send_keys, "tell Ан" + Keys.TAB)
    assert await page.js("return document.getElementById('line').value") == "tell Анна "
    await asyncio.to_thread(field.clear)
    await anna.close()

    # A Coup table with two bots, played through the buttons to the end.
    await page.type("open coup turn=30 reaction=10")
    await page.wait_text("table")
    await page.type("bots 2")
    await asyncio.sleep(0.3)
    await page.type("start")
    clicks, shot = await play_through(page, tmp_path, shots=True)
    assert shot and (tmp_path / "web-mid-game.png").stat().st_size > 1000
    assert clicks >= 1
    # Every click counted: no clock answered for Webster, nothing was refused.
    text = await page.output()
    assert "did not answer" not in text and "No such command" not in text, text[-3000:]
    # Sealed Bids through the same buttons: the rule for a button's line is not Coup's alone.
    await page.type("leave")
    await asyncio.sleep(0.3)
    await page.type("open bids rounds=3 seconds=10")
    await page.wait_text("table 2")
    await page.type("bots 2")
    await asyncio.sleep(0.3)
    await page.type("start")
    clicks, _ = await play_through(page, tmp_path, shots=False)
    assert clicks == 3, "one bid a round"
    text = await page.output()
    assert "did not answer" not in text and "No such command" not in text, text[-3000:]
    srv.terminate()
    assert "secret1" not in srv.log()
