"""The fonts the app ships (frontend/fonts/, fonts.css): a page in Malayalam, Georgian, Persian or
Bengali draws its script with the face served from this origin, whatever the machine has
installed, and a page downloads a face only for a script it shows.

What drew the text is asked of Chromium itself (the DevTools protocol's
``CSS.getPlatformFontsForNode``, which names each font used for a node's text and whether it
came from a web font), so a system font of the same name does not pass for the shipped one.
Screenshots of the front page and Spite & Malice's lobby on a phone go to screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.screens import settle, shoot_checked

PHONE = {"width": 390, "height": 844}
FACES = {
    "ml": ("Noto Sans Malayalam", "noto-sans-malayalam-malayalam-wght-normal"),
    "ka": ("Noto Sans Georgian", "noto-sans-georgian-georgian-wght-normal"),
    "fa": ("Vazirmatn", "vazirmatn-arabic-wght-normal"),
    "bn": ("Noto Sans Bengali", "noto-sans-bengali-bengali-wght-normal"),
}
LOCALES = {"ml": "ml-IN", "ka": "ka-GE", "fa": "fa-IR", "bn": "bn-BD"}
SCREENS = [
    ("home", "/#/", "#start-daily"),
    ("lobby", "/#/spite-malice", "#sm-lobby-heading"),
]


def font_requests(page) -> list[str]:
    requests: list[str] = []
    page.on("requestfinished", lambda request: requests.append(request.url)
            if request.resource_type == "font" else None)
    return requests


def loaded_faces(page) -> list[str]:
    """The families of the page's @font-face rules the browser has loaded, once it is done."""
    return page.evaluate("""async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((face) => face.status === "loaded")
            .map((face) => face.family.replace(/^"|"$/g, ""));
    }""")


def platform_fonts(page, selector: str) -> list[dict]:
    """Each font Chromium drew the text of ``selector`` with: familyName, isCustomFont (a web
    font) and glyphCount."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    session.detach()
    return fonts


def full_faces(requests: list[str]) -> list[str]:
    """The whole faces among the fonts ``requests`` fetched (not the language menu's names)."""
    return [url for url in requests if "/language-name." not in url]


@pytest.mark.parametrize("lang", list(FACES))
def test_each_language_draws_its_script_with_the_shipped_face(open_page, shoot, base_url, lang):
    family, file = FACES[lang]
    page = open_page(None, viewport=PHONE, locale=LOCALES[lang])
    requests = font_requests(page)
    for name, path, ready in SCREENS:
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        settle(page, ready)
        assert family in loaded_faces(page)
        # The heading or button is drawn with the shipped face: its letters, not the system's
        # (whose font, here DejaVu Sans, has Georgian and Arabic too); only spaces, digits
        # and Latin fall to the system's UI font.
        fonts = platform_fonts(page, ready)
        drawn = [font for font in fonts if font["familyName"] == family and font["isCustomFont"]]
        assert drawn and drawn[0]["glyphCount"] >= 4, fonts
        shoot_checked(shoot, page, f"fonts-phone-{lang}-{name}")
    # One whole face, this script's, from this origin; the other scripts' only for the menu.
    assert [url.rsplit("/", 1)[1] for url in full_faces(requests)] == [f"{file}.woff2"], requests
    assert all(url.startswith(f"{base_url}/static/fonts/") for url in requests)


def test_an_english_page_downloads_only_the_language_menus_few_glyphs(open_page, base_url):
    page = open_page(None, viewport=PHONE)
    requests = font_requests(page)
    page.goto("/")
    settle(page, "#start-daily")
    assert set(loaded_faces(page)) == {"Language Names"}
    assert full_faces(requests) == []
    assert sorted(url.removeprefix(f"{base_url}/static/fonts/") for url in requests) == [
        "noto-sans-bengali/language-name.woff2", "noto-sans-georgian/language-name.woff2",
        "noto-sans-malayalam/language-name.woff2", "vazirmatn/language-name.woff2"]
    # Every language's name in the menu is drawn with those glyphs, none with a system font.
    # Chromium names the fonts of the text as last laid out: each choice is asked after a frame
    # was drawn with it (the headless shell lays out only for a frame).
    for lang, (family, _) in FACES.items():
        page.evaluate("""code => new Promise((drawn) => {
            document.getElementById('language').value = code;
            requestAnimationFrame(() => requestAnimationFrame(drawn));
        })""", lang)
        fonts = platform_fonts(page, "#language")
        assert [(font["familyName"], font["isCustomFont"]) for font in fonts] == [(family, True)]
    page.evaluate("document.getElementById('language').value = 'en'")
