"""The boards in a real headless Chromium, driven by Selenium by clicks and keys only, against
`bohnanza serve web` in a process of its own.

One whole game from the home page to the scores (a name, a table, two bots, trading on the
board); then two tabs of one player, and a server that stops and starts again under the page.
Needs Debian's `chromium` and `chromium-driver` (`.ci/chromium`); without them these tests are
skipped and say so. The final position and the board on a phone are saved in `.artifacts/`;
with BOHNANZA_SCREENSHOTS set to a folder, a moment of trading is saved there as `board.png`
(the README's picture: `BOHNANZA_SCREENSHOTS=docs/images`).
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from .process import ServeWeb

pytestmark = pytest.mark.server  # Chromium and the web server

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / ".artifacts"
PHONE = 360


def by(css: str) -> tuple[str, str]:
    return ("css selector", css)


def wait_for(test: Any, timeout: float = 30.0, what: str = "") -> Any:
    """The first true value of `test()` (never a test of speed: the bound is generous)."""
    ends = time.monotonic() + timeout
    while True:
        try:
            found = test()
        except Exception as error:  # an element redrawn meanwhile
            if type(error).__name__ != "StaleElementReferenceException":
                raise
            found = None
        if found:
            return found
        assert time.monotonic() < ends, f"waited in vain for {what}"
        time.sleep(0.05)


def click(driver: Any, css: str) -> None:
    wait_for(lambda: driver.find_elements(*by(css)), what=css)[0].click()


def redrawn(element: Any) -> bool:
    """Whether the page drew its board again since `element` was shown."""
    try:
        element.is_enabled()
        return False
    except Exception as error:
        return type(error).__name__ == "StaleElementReferenceException"


def severe(driver: Any) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def open_a_table(driver: Any, url: str, bots: int) -> None:
    """From the home page: a name, a table of one's own, bots, and the start."""
    driver.get(url + "/")
    wait_for(lambda: driver.find_elements(*by("#name")), what="the name field")[0].send_keys("Anna")
    click(driver, '[data-key="save-name"]')
    click(driver, '[data-key="new-table"]')
    wait_for(lambda: "/t/" in driver.current_url, what="the table's page")
    for count in range(2, bots + 2):
        click(driver, '[data-key="add-bot"]')
        wait_for(lambda n=count: len(driver.find_elements(*by(".lobby li"))) == n, what="a bot")
    click(driver, '[data-key="start"]')
    wait_for(lambda: driver.find_elements(*by("main.game")), what="the board")


class Clicker:
    """A person who plays his board by clicks (and now and then a key): answers the offers
    made to him, passes on the others' trading, offers a card of his own when trading on his
    turn, else makes the first move listed."""

    def __init__(self, driver: Any, seed: int) -> None:
        self.driver = driver
        self.rng = random.Random(seed)
        self.clicks = 0
        self.offered_in: set[str] = set()
        self.kinds: dict[str, int] = {}

    def _note(self, kind: str) -> None:
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self.clicks += 1

    def turn_key(self) -> str:
        return self.driver.find_element(*by("#head")).text

    def move(self) -> bool:
        """One move, if one is his now; whether he made one."""
        find = self.driver.find_elements
        answers = find(*by(".offer.tome button"))
        accepts = [b for b in answers if (b.get_attribute("data-key") or "").startswith("oaccept")]
        declines = [
            b for b in answers if (b.get_attribute("data-key") or "").startswith("odecline")
        ]
        moves = find(*by("button.move"))
        passes = [m for m in moves if m.get_attribute("data-command") == "pass"]
        send = find(*by('button[data-key="send"]'))
        if accepts and self.rng.random() < 0.4:
            return self._press(accepts[0], "accept")
        if declines:
            return self._press(declines[0], "decline")
        if passes:
            return self._press(passes[0], "pass")
        key = self.turn_key()
        if send and key not in self.offered_in and find(*by('[data-row="hand"] .cardbtn')):
            self.offered_in.add(key)
            find(*by('[data-row="hand"] .cardbtn'))[-1].click()
            chips = find(*by('.trade button.chip[data-key^="want"]'))
            chips[self.rng.randrange(len(chips))].click()
            return self._press(self.driver.find_element(*by('button[data-key="send"]')), "offer")
        if moves:
            if self.rng.random() < 0.3:
                # The keys: "1" makes the first move listed.
                self.driver.find_element(*by("body")).send_keys("1")
                self._note("key")
                self._wait_redrawn(moves[0])
                return True
            return self._press(moves[0], "move")
        return False

    def _press(self, element: Any, kind: str) -> bool:
        element.click()
        self._note(kind)
        self._wait_redrawn(element)
        return True

    def _wait_redrawn(self, element: Any) -> None:
        ends = time.monotonic() + 10
        while time.monotonic() < ends and not redrawn(element):
            time.sleep(0.02)


def trading_on_her_turn(driver: Any, head: str) -> bool:
    """A moment worth a picture: Anna trades on her turn, some turns in, an offer open."""
    turn = head.split(" · turn ")[-1].split(" ")[0]
    return (
        head.endswith("· Anna")
        and turn.isdigit()
        and int(turn) >= 10
        and bool(driver.find_elements(*by(".offer")))
        and bool(driver.find_elements(*by('[data-row="up"]')))
    )


@pytest.mark.slow
def test_a_whole_game_from_the_web_lobby_to_the_scores_by_clicks(
    chromium: Any, served: ServeWeb
) -> None:
    driver = chromium
    open_a_table(driver, served.url, bots=2)
    player = Clicker(driver, seed=5)
    screenshots = os.environ.get("BOHNANZA_SCREENSHOTS")
    pictured = False
    ends = time.monotonic() + 600
    while not driver.find_elements(*by(".result")):
        assert time.monotonic() < ends, "the game did not end"
        try:
            made = player.move()
        except Exception as error:
            if type(error).__name__ != "StaleElementReferenceException":
                raise
            continue
        if not made:
            time.sleep(0.05)
        if screenshots and not pictured and trading_on_her_turn(driver, player.turn_key()):
            pictured = True
            driver.set_window_size(1280, 900)
            driver.save_screenshot(str(Path(screenshots) / "board.png"))
            driver.set_window_size(1280, 1400)
    scores = driver.find_elements(*by(".result li"))
    assert len(scores) == 3
    assert all(item.get_attribute("data-score") for item in scores)
    assert driver.find_element(*by(".result .winner")).text.startswith("Winner: ")
    assert player.kinds.get("offer", 0) >= 1 and player.kinds.get("key", 0) >= 1, player.kinds
    assert player.clicks > 30
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "board-final.png"))
    # A phone: the board fits 360 px, nothing to scroll sideways.
    driver.set_window_size(PHONE, 800)
    width = driver.execute_script("return document.documentElement.scrollWidth")
    inner = driver.execute_script("return window.innerWidth")
    assert width <= inner <= PHONE + 20, (width, inner)
    driver.save_screenshot(str(ARTIFACTS / "board-phone.png"))
    assert severe(driver) == []


def main_text(driver: Any, handle: str) -> str:
    driver.switch_to.window(handle)
    text: str = driver.find_element(*by("main")).text
    return text


def test_two_tabs_stay_in_step_and_a_page_follows_the_server_through_a_restart(
    chromium: Any, served: ServeWeb
) -> None:
    driver = chromium
    open_a_table(driver, served.url, bots=1)
    first = driver.current_window_handle
    table = driver.current_url
    driver.switch_to.new_window("tab")
    second = driver.current_window_handle
    driver.get(table)
    wait_for(lambda: driver.find_elements(*by("main.game")), what="the second tab's board")
    assert main_text(driver, first) == main_text(driver, second)

    driver.switch_to.window(first)
    before = main_text(driver, first)
    Clicker(driver, seed=1).move()
    after = main_text(driver, first)
    assert after != before
    wait_for(lambda: main_text(driver, second) == main_text(driver, first), what="the other tab")

    assert served.stop() == 0
    driver.switch_to.window(second)
    live = driver.find_element(*by("#live"))
    wait_for(lambda: "away" in (live.get_attribute("class") or ""), what="the page to notice")
    served.start()
    wait_for(lambda: "away" not in (live.get_attribute("class") or ""), what="the page back")
    assert main_text(driver, second) == after
    moved = Clicker(driver, seed=2)
    wait_for(moved.move, what="a move after the restart")
    wait_for(lambda: main_text(driver, first) == main_text(driver, second), what="both tabs")
    assert main_text(driver, first) != after
    assert severe(driver) == [] or all("api/events" in line for line in severe(driver))
