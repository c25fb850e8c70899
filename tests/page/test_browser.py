"""The game page in a real headless Chromium, driven by Selenium as a person would use it.

Needs Debian's `chromium` and `chromium-driver` (`.ci/chromium` installs them as root); without
them these tests are skipped and say so. Nothing is downloaded: Selenium is pointed at the
system's chromedriver. The final position is saved as `.artifacts/replay-final.png`; with
BOHNANZA_SCREENSHOTS set to a folder, a position in mid-game is saved there as `replay.png`
(the README's picture: `BOHNANZA_SCREENSHOTS=docs/images`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bohnanza.adapters.game_page import game_page
from bohnanza.core.analysis import Analysis, SearchSize, decisions, judge, summarise
from bohnanza.core.record import GameRecord

from .pages import HOSTILE_NAMES, bot_game, hands_at_every_moment, renamed

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / ".artifacts" / "replay-final.png"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1300,1500",
)

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="no /usr/bin/chromium and /usr/bin/chromedriver: run .ci/chromium as root "
    "(apt-get install chromium chromium-driver)",
)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    profile = tempfile.mkdtemp(prefix="bohnanza-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """A 4-player bot game whose first player has a hostile name."""
    return renamed(bot_game(4, seed=5), HOSTILE_NAMES[:1])


def opened(browser: WebDriver, tmp_path: Path, page: bytes) -> None:
    path = tmp_path / "game.html"
    path.write_bytes(page)
    browser.get(path.as_uri())
    browser.get_log("browser")  # only what this page logs counts


def severe(browser: WebDriver) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def press(browser: WebDriver, *keys: str) -> None:
    browser.find_element(By.TAG_NAME, "body").send_keys(*keys)


def shown_at(browser: WebDriver) -> int:
    return int(browser.find_element(By.ID, "slider").get_attribute("value") or -1)


def test_a_spectator_reaches_the_final_scores_with_the_end_key(
    browser: WebDriver, tmp_path: Path, record: GameRecord
) -> None:
    opened(browser, tmp_path, game_page(record))
    actions = len(record.actions)
    assert shown_at(browser) == 0
    assert browser.find_element(By.ID, "slider").get_attribute("max") == str(actions)
    press(browser, Keys.END)
    assert shown_at(browser) == actions
    assert browser.find_element(By.ID, "counter").text == f"Action {actions} of {actions}"
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed()
    scores = {
        int(item.get_attribute("data-seat") or -1): int(item.get_attribute("data-score") or -1)
        for item in result.find_elements(By.CSS_SELECTOR, "li")
    }
    assert record.result is not None
    assert scores == dict(enumerate(record.result.scores))
    winners = ", ".join(record.seats[s].name for s in record.result.winners)
    assert result.find_element(By.CLASS_NAME, "winner").text == f"Winner: {winners}"
    SCREENSHOT.parent.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOT))
    print(f"the final position: {SCREENSHOT}")
    assert severe(browser) == []


def test_a_spectator_sees_no_hand_at_any_moment(
    browser: WebDriver, tmp_path: Path, record: GameRecord
) -> None:
    opened(browser, tmp_path, game_page(record))
    assert browser.find_elements(By.ID, "hand") == []
    for _ in range(8):
        press(browser, Keys.ARROW_RIGHT)
        assert browser.find_elements(By.ID, "hand") == []
        seats = browser.find_elements(By.CSS_SELECTOR, "#seats .seat")
        assert len(seats) == 4 and all(s.get_attribute("data-hand") for s in seats)
    assert severe(browser) == []


def test_a_hostile_name_shows_as_written(
    browser: WebDriver, tmp_path: Path, record: GameRecord
) -> None:
    opened(browser, tmp_path, game_page(record))
    first_seat = browser.find_element(By.CSS_SELECTOR, "#seats .seat .who")
    assert HOSTILE_NAMES[0] in first_seat.text
    assert browser.execute_script("return document.scripts.length") == 2
    assert severe(browser) == []


def test_a_player_steps_through_his_own_hand(
    browser: WebDriver, tmp_path: Path, record: GameRecord
) -> None:
    seat = 2
    opened(browser, tmp_path, game_page(record, seat=seat))
    hands = [moments[seat] for moments in hands_at_every_moment(record)]
    codes = browser.execute_script(
        "return JSON.parse(document.getElementById('game-data').textContent).codes"
    )

    def hand_shown() -> list[str]:
        cards = browser.find_elements(By.CSS_SELECTOR, "#hand .bean")
        return [card.get_attribute("data-variety") or "" for card in cards]

    assert hand_shown() == [codes[v] for v in hands[0]]
    press(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert shown_at(browser) == 3
    assert hand_shown() == [codes[v] for v in hands[3]]
    browser.find_element(By.ID, "last").click()
    assert shown_at(browser) == len(record.actions)
    browser.find_element(By.ID, "previous").click()
    assert shown_at(browser) == len(record.actions) - 1
    assert not browser.find_element(By.ID, "result").is_displayed()
    assert hand_shown() == [codes[v] for v in hands[-2]]
    browser.find_element(By.ID, "first").click()
    browser.find_element(By.ID, "next").click()
    assert shown_at(browser) == 1
    press(browser, Keys.HOME)
    assert shown_at(browser) == 0
    assert severe(browser) == []


def test_the_chart_marker_follows_the_turn_shown(
    browser: WebDriver, tmp_path: Path, record: GameRecord
) -> None:
    opened(browser, tmp_path, game_page(record, "it"))
    marker = browser.find_element(By.ID, "chart-now")
    start = float(marker.get_attribute("x1") or 0)
    press(browser, Keys.END)
    assert float(marker.get_attribute("x1") or 0) > start + 500
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "it"
    assert severe(browser) == []


def test_a_player_sees_every_seats_fields_in_mid_game(browser: WebDriver, tmp_path: Path) -> None:
    record = renamed(bot_game(4, seed=5), ("Anna", "Bruno", "Carla", "Dario"))
    opened(browser, tmp_path, game_page(record, seat=0))
    middle = len(record.actions) // 2
    browser.execute_script(
        "const s = document.getElementById('slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input'));",
        middle,
    )
    assert shown_at(browser) == middle
    assert browser.find_elements(By.CSS_SELECTOR, "#seats .seat .bean")
    assert browser.find_elements(By.CSS_SELECTOR, "#hand .bean")
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#seats .seat .who")]
    assert [n.split(":")[0] for n in names] == ["1. Anna", "2. Bruno", "3. Carla", "4. Dario"]
    if folder := os.environ.get("BOHNANZA_SCREENSHOTS"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(folder) / "replay.png"))
    assert severe(browser) == []


QUICK = SearchSize(seed=1, deals=2, horizon=1)
"""A small search: the page shows whatever the analysis found."""


def analysis_of(record: GameRecord, seats: frozenset[int] | None) -> Analysis:
    return summarise(record, [judge(m, QUICK) for m in decisions(record, seats)], seats)


def test_a_players_page_marks_his_costly_decisions_and_shows_the_better_option(
    browser: WebDriver, tmp_path: Path, record: GameRecord
) -> None:
    analysis = analysis_of(record, frozenset({2}))
    costly = sorted({j.index + 1 for j in analysis.judgements if j.loss > 0})
    assert costly
    opened(browser, tmp_path, game_page(record, seat=2, analysis=analysis))
    marks = browser.find_elements(By.CSS_SELECTOR, "#marks .mark")
    assert sorted(int(m.get_attribute("data-step") or -1) for m in marks) == costly
    better = browser.find_element(By.ID, "better")
    assert not better.is_displayed()
    marks[0].click()
    step = int(marks[0].get_attribute("data-step") or -1)
    assert shown_at(browser) == step
    assert better.is_displayed()
    [judgement] = [j for j in analysis.judgements if j.index + 1 == step]
    assert better.text.startswith(f"{record.seats[2].name}, turn {judgement.turn}, ")
    assert "; better " in better.text
    if step + 1 not in costly and step < len(record.actions):
        press(browser, Keys.ARROW_RIGHT)
        assert not better.is_displayed()
    lines = browser.find_elements(By.CSS_SELECTOR, "#analysis p")
    assert [line.text.split(":")[0] for line in lines] == [record.seats[2].name]
    assert severe(browser) == []


def test_a_spectators_page_of_a_finished_game_marks_every_seats_decisions(
    browser: WebDriver, tmp_path: Path, record: GameRecord
) -> None:
    analysis = analysis_of(record, None)
    opened(browser, tmp_path, game_page(record, analysis=analysis))
    marks = browser.find_elements(By.CSS_SELECTOR, "#marks .mark")
    steps = {int(m.get_attribute("data-step") or -1) for m in marks}
    assert steps == {j.index + 1 for j in analysis.judgements if j.loss > 0}
    assert len({record.actions[step - 1].player for step in steps}) == 4
    assert len(browser.find_elements(By.CSS_SELECTOR, "#analysis p")) == 4
    points = browser.find_elements(By.CSS_SELECTOR, "#turning li button")
    assert len(points) == len(analysis.turning_points)
    turning = browser.find_element(By.ID, "turning")
    assert turning.location["y"] < browser.find_element(By.ID, "table").location["y"]
    if points:
        points[0].click()
        assert shown_at(browser) == analysis.turning_points[0].index + 1
        assert browser.find_element(By.ID, "better").is_displayed()
    else:
        assert "No decision was surely a mistake." in turning.text
    assert severe(browser) == []
