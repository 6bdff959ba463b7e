"""The front end's static files once collected (`make run` runs collectstatic): hashed names,
imports between the modules rewritten to them, the page pointing at them and preloading every
module of the first screen, a year's immutable caching, and Brotli beside gzip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings

from server.core.frontpage import first_load_modules

HASHED = re.compile(r"\.[0-9a-f]{12}\.(?:js|css|svg|webmanifest)$")
IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)["'](\.{1,2}/[^"']+)["']""", re.M)
# The app's own files only: collecting the admin's and the API docs' too would take a while
# and proves nothing more here.
FRONTEND_ONLY = ["django.contrib.staticfiles.finders.FileSystemFinder"]


@pytest.fixture(scope="module")
def collected(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=root, STATICFILES_FINDERS=FRONTEND_ONLY):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def served(collected):
    """A client of the app serving the collected files, as gunicorn after `make run` does."""
    with override_settings(STATIC_ROOT=collected, STATICFILES_FINDERS=FRONTEND_ONLY):
        yield Client()


def static_references(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_the_page_points_at_hashed_files_and_preloads_the_first_screen(served):
    response = served.get("/")
    html = response.content.decode()

    references = static_references(html)
    assert references and all(HASHED.search(url) for url in references), references
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', html)
    assert all(HASHED.search(name) for name in preloaded)
    unhashed = [re.sub(r"\.[0-9a-f]{12}\.js$", ".js", name) for name in preloaded]
    first = first_load_modules(Path(settings.FRONTEND_DIR))
    assert sorted(unhashed) == sorted(set(first) - {"app.js"})
    # Today's screen and what it draws with are fetched at once, not one import at a time.
    for module in ("foursquare/today.js", "foursquare/game-screen.js", "foursquare/board.js",
                   "foursquare/model/grid.js", "lib/dom.js", "i18n.js"):
        assert module in first
    assert re.search(r'<script type="module" src="/static/app\.[0-9a-f]{12}\.js"></script>', html)
    assert response["Cache-Control"] == "no-cache"


def test_hashed_files_are_immutable_for_a_year_and_come_in_brotli_and_gzip(served):
    html = served.get("/").content.decode()
    script = next(url for url in static_references(html) if "/app." in url and url.endswith(".js"))

    plain = served.get(script)
    assert plain.status_code == 200
    assert plain["Cache-Control"] == "max-age=315360000, public, immutable"
    brotli = served.get(script, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert brotli["Content-Encoding"] == "br"
    assert len(b"".join(brotli.streaming_content)) < len(b"".join(plain.streaming_content)) / 2
    gzip = served.get(script, HTTP_ACCEPT_ENCODING="gzip")
    assert gzip["Content-Encoding"] == "gzip"
    # The plain name still answers (a page loaded before a deploy), but is not cached for long.
    old = served.get("/static/app.js")
    assert old.status_code == 200 and "immutable" not in old["Cache-Control"]


def test_every_import_of_every_collected_module_names_a_hashed_file(collected):
    modules = [path for path in collected.rglob("*.js") if HASHED.search(path.name)]
    assert len(modules) > 30
    imports = 0
    for module in modules:
        for target in IMPORT.findall(module.read_text(encoding="utf-8")):
            imports += 1
            assert HASHED.search(target), f"{module.name} imports {target}"
            assert (module.parent / target).resolve().is_file(), f"{module.name}: {target}"
    # Static imports, the screens' dynamic import()s and each language's table among them.
    assert imports > 100
    app = next(path for path in modules if path.name.startswith("app."))
    assert re.search(r'import\("\./foursquare/today\.[0-9a-f]{12}\.js"\)', app.read_text())
    i18n = next(path for path in modules if path.name.startswith("i18n."))
    assert re.search(r'import\("\./locales/fa\.[0-9a-f]{12}\.js"\)', i18n.read_text())


def test_without_collected_files_the_page_names_the_sources(client):
    # The tests and `runserver` serve frontend/ through the static finders, under plain names.
    html = client.get("/").content.decode()
    assert '<script type="module" src="/static/app.js"></script>' in html
    assert '<link rel="modulepreload" href="/static/foursquare/today.js">' in html
