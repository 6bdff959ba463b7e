"""End-to-end tests: the browser app in Debian's headless Chromium, driven by Playwright, against
the live server (pytest-django's ``live_server``) on the PostgreSQL test database.

Chromium is the system's, never a browser Playwright downloads: Debian's headless shell
(``/usr/bin/chromium-headless-shell``, installed by ``make test-e2e`` beside ``chromium``), which
draws the same pages as the full browser's headless mode for about a quarter less CPU
(docs/TESTING.md, "The suite's time"); ``CHROMIUM=/usr/bin/chromium`` runs them in the full one.
Screenshots of the main screens go to ``screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import worker_suffix
from tests.e2e.accessibility import assert_accessible
from tests.e2e.quiet import watch
from tests.serving import WAIT_SECONDS
from tests.wall_clock import clear_of_date_boundaries

# Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are still
# plain synchronous code between browser steps.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO_ROOT / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync",
]
# Every wait on the page (an action's target, an expect() until it holds) is bounded by the tests'
# generous WAIT_SECONDS: the page waits on the server, which a busy machine slows. A wait ends
# as soon as what it waits for is there.
WAIT_MS = WAIT_SECONDS * 1000
expect.set_options(timeout=WAIT_MS)
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The live server serves other threads: every e2e test needs real, committed transactions.
    for item in items:
        if "tests/e2e/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> None:
    # A test database of its own, so a run of the server tests next door does not collide.
    from django.conf import settings

    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["NAME"] = f"test_{database['NAME']}_e2e{worker_suffix()}"


@pytest.fixture(autouse=True)
def _clear_of_date_boundaries() -> None:
    """Each test starts where no date changes before it ends (tests/wall_clock.py): the
    browser, the test's ``today()`` and the server read the wall clock, and a daily that rolled
    over mid-test would be another deal than the one ``known_daily`` set up."""
    clear_of_date_boundaries()


@pytest.fixture(autouse=True)
def _fresh_rate_limits(settings) -> None:
    """Every test starts with nothing counted against the API's rate limits."""
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "e2e"}}
    cache.clear()


@pytest.fixture(scope="session")
def browser() -> Iterator:
    if not (shutil.which(CHROMIUM) or Path(CHROMIUM).exists()):
        pytest.exit(
            f"The end-to-end tests need Chromium at {CHROMIUM}: run `make test-e2e`, which "
            "installs Debian's chromium-headless-shell when it is missing (or set "
            "CHROMIUM=/path/to/chromium).",
            returncode=3,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def base_url(live_server) -> str:
    return live_server.url


@pytest.fixture
def open_page(browser, base_url) -> Iterator[Callable]:
    """Opens a page in a fresh browser context (its own storage: another device, another
    player), at `path` unless it is None. Uncaught script errors and Content-Security-Policy
    violations fail the test."""
    contexts = []
    problems: list[str] = []

    def open_(path: str | None = "/", *, viewport=PHONE, locale="en-US", color_scheme="light"):
        context = browser.new_context(
            viewport=viewport, locale=locale, color_scheme=color_scheme, timezone_id="UTC",
            base_url=base_url, permissions=["clipboard-read", "clipboard-write"],
            reduced_motion="reduce",
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        watch(page)  # its requests counted from the start, for wait_for_quiet
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.on("console", lambda message: problems.append(f"console: {message.text}")
                if "Content Security Policy" in message.text else None)
        if path is not None:
            page.goto(path)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert problems == []


@pytest.fixture(scope="session")
def shoot() -> Callable:
    """Saves a screenshot under screenshots/ for a person to look at, and checks the screen
    with axe-core: no serious or critical violation (tests/e2e/accessibility.py)."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def shoot_(page, name: str, *, full_page: bool = True) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)
        assert_accessible(page, name)

    return shoot_


def _real_server(log_dir: Path) -> Iterator:
    from tests.asgi_server import TEST_REDIS_URL, asgi_server, database_url, redis_reachable

    why = redis_reachable()
    if why:
        pytest.fail(why)
    with asgi_server(database_url=database_url(), redis_url=TEST_REDIS_URL, log_dir=log_dir,
                     collect_static=True) as running:
        yield running


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator:
    """The real server (gunicorn's ASGI workers) with Redis, for the live tests: sockets, notices
    across its processes, and the static files the pages load. One per module and worker, as
    the server tests' live modules share theirs (tests/server/spitemalice/live/conftest.py):
    a start costs seconds, and its tests need no fresh one. Each test's rows are its own (the
    database is flushed after it while the server keeps running), and everything it makes
    (players, matches, races) has a new id, so nothing one test leaves in the server's
    processes or its Redis prefix is found by the next. A test that breaks the server on
    purpose takes ``fresh_server``."""
    yield from _real_server(tmp_path_factory.mktemp("asgi"))


@pytest.fixture
def fresh_server(tmp_path) -> Iterator:
    """A real server of the test's own, for a test that kills its workers."""
    yield from _real_server(tmp_path)


def _devices_on(browser, server) -> Iterator:
    from tests.e2e.live import Devices

    opened = Devices(browser, server)
    yield opened
    opened.close()
    assert opened.problems == []


@pytest.fixture
def devices(browser, server) -> Iterator:
    """Browsers on ``server``, one context a player (``tests.e2e.live.Devices``); their script
    errors and Content-Security-Policy violations fail the test."""
    yield from _devices_on(browser, server)


@pytest.fixture
def fresh_devices(browser, fresh_server) -> Iterator:
    """``devices`` on ``fresh_server``."""
    yield from _devices_on(browser, fresh_server)
