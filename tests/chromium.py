"""Headless Chromium for the browser tests (tests/test_browser.py: the replay page;
tests/test_serve_browser.py: `rulewright serve`): the distribution's /usr/bin/chromium and
/usr/bin/chromedriver, driven by Selenium, which `make test` installs where apt may. Light to
import: selenium is imported only when a browser starts."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runtime.board import Scene

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
NO_BROWSER = (
    "no Chromium: install the Debian packages chromium and chromium-driver (make test does where it can)"
)
NO_SELENIUM = "no selenium: pip install -r requirements-dev.lock (or the dev extra)"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    # without these, Chromium keeps calling the network this machine has not got
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # drawn by the browser itself, without a software GPU process: about 2 s of CPU less a module
    "--disable-gpu-compositing",
    "--disable-software-rasterizer",
)


def why_not() -> str | None:
    """Why no browser test can run here, or None."""
    if not (CHROMIUM.is_file() and DRIVER.is_file()):
        return NO_BROWSER
    if importlib.util.find_spec("selenium") is None:
        return NO_SELENIUM
    return None


def start(profile: Path, width: int, height: int) -> Any:
    """A Chromium driver with its own profile folder, its window `width` x `height`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    # the driver's path given: Selenium Manager is never asked (it would download one)
    return webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=options)


def visible_texts(seen: Scene, log: list[str]) -> str:
    """Every text a perspective's scene and log show, joined: what either page may show it (a
    hidden card's label found in neither is one the page must not show)."""
    texts = [seen.status, seen.prompt, *seen.options, *seen.effects, *log, *seen.players]
    for layer in seen.layers:
        for p in layer.places:
            texts += [p.label, p.group, *(v for _, v in p.values)]
    for t in seen.tracks:
        texts += [t.name, t.text]
    for z in seen.zones:
        texts.append(z.key)
        for c in z.cards or ():
            texts += [c.label, c.value, c.text]
    return "\n".join(texts)


def hidden_cards(everyone: Scene, seen: Scene) -> set[str]:
    """The labels of the cards that everyone's scene shows and a perspective's (`seen`) hides."""
    return {
        c.label
        for z, mine in zip(everyone.zones, seen.zones, strict=True)
        if z.cards is not None and mine.cards is None
        for c in z.cards
    }
