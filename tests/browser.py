"""A real headless Chromium (Debian's /usr/bin/chromium through Playwright) for
the pages' tests: every request to another host aborted and recorded, every
uncaught script error recorded, both failing the test. ``conftest`` registers
the fixtures ``browser`` and ``visit``."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tooling.services import ROOT

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "tests" / "artifacts"  # git-ignored; a reviewer opens the PNGs


def is_loopback(url: str) -> bool:
    """True for the addresses a test may talk to (127.0.0.0/8, ::1, localhost)."""
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    host = parts.hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(
            "the browser test needs Playwright's Python API: pip install -e '.[test]' "
            "(./scripts/setup does it)"
        )
    if not CHROMIUM.exists():
        pytest.fail(
            f"the browser test needs Chromium at {CHROMIUM}: apt-get install -y "
            "chromium (./scripts/setup_browser does it as root), or set CHROMIUM"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Visit:
    """One browser context: requests to other hosts are aborted and recorded,
    uncaught script errors recorded."""

    def __init__(self, browser: Any, width: int, height: int) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.context.grant_permissions(["clipboard-read", "clipboard-write"])
        self.blocked: list[str] = []
        self.script_errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.script_errors.append(str(error)))

    def _route(self, route: Any) -> None:
        if is_loopback(route.request.url):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def close(self) -> None:
        self.context.close()
        assert self.blocked == [], f"requests to other hosts: {self.blocked}"
        assert self.script_errors == []


Opener = Callable[..., Visit]


@pytest.fixture
def visit(browser: Any) -> Iterator[Opener]:
    opened: list[Visit] = []

    def open_page(width: int = 1280, height: int = 900) -> Visit:
        opened.append(Visit(browser, width, height))
        return opened[-1]

    yield open_page
    for each in opened:
        each.close()


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path
