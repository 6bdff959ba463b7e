"""The fonts the app ships (frontend/fonts/, fonts.css) once collected: the stylesheet names
their hashed files, which are served for good; and they stay small."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from tests.server import test_static_files as static_files
from tests.server.test_static_files import HASHED, static_references

# The frontend collected once for this module, and a client serving it (test_static_files.py).
collected = static_files.collected
served = static_files.served


def test_the_fonts_stylesheet_names_the_hashed_fonts_served_for_good(collected, served):
    html = served.get("/").content.decode()
    stylesheet = next(url for url in static_references(html) if "/fonts." in url)
    assert HASHED.search(stylesheet)
    css = b"".join(served.get(stylesheet).streaming_content).decode()
    fonts = re.findall(r'url\("([^"]+)"\)', css)
    # A face per script, and the language menu's names cut from each.
    assert len(fonts) == 8
    for font in fonts:
        assert re.search(r"^fonts/[a-z-]+/[a-z-]+\.[0-9a-f]{12}\.woff2$", font), font
        assert (collected / font).is_file(), font
    response = served.get(f"/static/{fonts[0]}", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert response.status_code == 200
    assert response["Content-Type"] == "font/woff2"
    assert response["Cache-Control"] == "max-age=315360000, public, immutable"
    assert "Content-Encoding" not in response  # woff2 is compressed already


def test_the_front_page_allows_fonts_from_this_origin_only(client):
    assert "font-src 'self'" in client.get("/")["Content-Security-Policy"].split("; ")


def test_the_shipped_fonts_stay_small_and_keep_their_licence():
    fonts = sorted((Path(settings.FRONTEND_DIR) / "fonts").rglob("*.woff2"))
    sizes = {f"{font.parent.name}/{font.name}": font.stat().st_size for font in fonts}
    assert len(fonts) == 8
    # A script's whole face at most 128 KB (a page downloads its own only), all under 400 KB.
    assert all(size <= 128 * 1024 for size in sizes.values()), sizes
    assert sum(sizes.values()) <= 400 * 1024, sizes
    assert all(size <= 4 * 1024 for name, size in sizes.items() if "language-name" in name)
    for font in fonts:
        assert "SIL Open Font License" in (font.parent / "OFL.txt").read_text(encoding="utf-8")
