"""The front page itself: what a first visit downloads, its security headers, and languages."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.quiet import wait_for_quiet

# 154 KB measured with the races' own tab, the header's scroll arrows and the cards' drawn ranks.
FIRST_LOAD_BUDGET = 160 * 1024
# On top: the language menu names each language in its own script, with a few glyphs of each
# (fonts.css and its faces; a script's whole face loads only for a page in that language).
FONTS_BUDGET = 12 * 1024


def test_a_first_visit_downloads_at_most_160_kb_all_from_this_origin(open_page, base_url):
    page = open_page(None)
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    response = page.goto("/")
    page.locator("#start-daily").wait_for()
    wait_for_quiet(page)

    sizes = {request.url: request.sizes() for request in finished}
    total = sum(size["responseBodySize"] + size["responseHeadersSize"] for size in sizes.values())
    fonts = sum(size["responseBodySize"] + size["responseHeadersSize"]
                for url, size in sizes.items() if url.startswith(f"{base_url}/static/fonts"))
    print(f"first load: {len(sizes)} responses, {total} bytes, {fonts} of them fonts")
    assert fonts <= FONTS_BUDGET
    assert total - fonts <= FIRST_LOAD_BUDGET, sorted(
        sizes.items(), key=lambda item: -item[1]["responseBodySize"])
    assert all(url.startswith(base_url) for url in sizes)
    # Only the language in use is downloaded, and no screen that is not shown.
    assert [url for url in sizes if "/locales/" in url] == [f"{base_url}/static/locales/en.js"]
    assert not [url for url in sizes if re.search(r"/(rules|boards|leagues|result|races)", url)]

    headers = response.headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "style-src 'self'" in headers["content-security-policy"]
    html = response.text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # no inline script
    assert "<style" not in html and " style=" not in html
    assert '<script type="module" src="/static/app.js"></script>' in html


def test_persian_turns_the_page_right_to_left_and_every_language_is_remembered(open_page, shoot):
    page = open_page(locale="fa-IR")
    html = page.locator("html")
    expect(html).to_have_attribute("dir", "rtl")
    expect(html).to_have_attribute("lang", "fa")
    expect(page.locator(".site-nav [data-section=today]")).to_have_text("امروز")
    expect(page.locator("#start-daily")).to_have_text("بازی امروز را شروع کن")
    expect(page.locator(".today-intro .subtle")).to_have_text(re.compile("[۰-۹]"))  # Persian digits
    shoot(page, "phone-light-fa-welcome")

    page.select_option("#language", "en")
    expect(html).to_have_attribute("dir", "ltr")
    expect(page.locator("#start-daily")).to_have_text("Play today's deal")
    page.reload()
    expect(html).to_have_attribute("lang", "en")  # the choice outlives the browser's language

    for code, today in [("ml", "ഇന്ന്"), ("ka", "დღეს"), ("bn", "আজ"), ("fa", "امروز")]:
        page.select_option("#language", code)
        expect(html).to_have_attribute("lang", code)
        expect(page.locator(".site-nav [data-section=today]")).to_have_text(today)
        expect(page.locator("body")).not_to_contain_text(re.compile(r"\b[a-z]+\.[a-z_]+\b"))
    expect(html).to_have_attribute("dir", "rtl")
    page.locator(".welcome button").click()  # "Just play" starts the game
    page.locator(".game .board").wait_for()
    # Focus goes on to the board, not back to <body>.
    expect(page.locator('.game .cell[tabindex="0"]')).to_be_focused()
    expect(page.locator(".game-panel .label").first).to_have_text("کارت فعلی")
    page.locator('.game .cell[data-target="true"]').first.click()
    expect(page.locator("#announcer")).to_contain_text("گذاشته شد")


def test_the_skip_link_moves_to_the_content_and_keeps_the_screen(open_page):
    for path, ready in (("/", "#start-daily"), ("/#/rules", "main h1")):
        page = open_page(path)
        page.locator(ready).first.wait_for()
        before = page.url
        page.keyboard.press("Tab")  # the first stop on every page
        expect(page.locator(".skip-link")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("main#main")).to_be_focused()
        assert page.url == before
        expect(page.locator(ready).first).to_be_visible()  # the same screen, not "nothing here"
