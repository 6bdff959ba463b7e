"""What the screenshot tests share: a screen waited for until it has settled, and a shot of it
that also checks the page does not scroll sideways."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.quiet import wait_for_quiet

# The sizes the screens are looked at in: a phone players hold, and a laptop's window.
PHONE_TALL = {"width": 390, "height": 844}
DESKTOP_WIDE = {"width": 1366, "height": 900}
# Each screen's looks: both sizes, light and dark, and Persian (right to left).
LOOKS = [
    pytest.param(PHONE_TALL, "light", "en-US", id="phone-light"),
    pytest.param(PHONE_TALL, "dark", "en-US", id="phone-dark"),
    pytest.param(DESKTOP_WIDE, "light", "en-US", id="desktop-light"),
    pytest.param(DESKTOP_WIDE, "dark", "en-US", id="desktop-dark"),
    pytest.param(PHONE_TALL, "light", "fa-IR", id="phone-fa"),
    pytest.param(DESKTOP_WIDE, "dark", "fa-IR", id="desktop-dark-fa"),
]


def assert_no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def settle(page, ready: str) -> None:
    """Until ``ready`` (a selector) shows, nothing in main is still loading and the network is
    quiet, so a shot shows the screen drawn."""
    page.locator(ready).first.wait_for()
    expect(page.locator("main[aria-busy]")).to_have_count(0)
    wait_for_quiet(page)


def shoot_checked(shoot: Callable, page, name: str, *, full_page: bool = True) -> None:
    """``shoot``'s screenshot (the conftest fixture), then the sideways-scroll check."""
    shoot(page, name, full_page=full_page)
    assert_no_sideways_scroll(page)
