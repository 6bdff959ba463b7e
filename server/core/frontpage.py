"""The front page as it is served: ``frontend/index.html`` with every ``/static/…`` reference
pointed at the file's hashed name, and a ``<link rel="modulepreload">`` for every module the
first screen needs, so the browser fetches them all at once instead of one import at a time.

The first screen's modules are found by following the static ``import … from "./x.js"``
statements from ``app.js`` and from the module of the default route (``foursquare/today.js``);
the dynamic ``import()`` of the other screens is left to load on first use.
"""

from __future__ import annotations

import functools
import posixpath
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage

FIRST_SCREEN = ("app.js", "foursquare/today.js")

_STATIC_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["'](?P<from>\.{1,2}/[^"']+)["']"""
    r"""|^\s*import\s*["'](?P<bare>\.{1,2}/[^"']+)["']""",
    re.MULTILINE,
)
_STATIC_REFERENCE = re.compile(r"""(?P<attr>\b(?:href|src))="/static/(?P<name>[^"?#]+)\"""")
_PRELOAD = re.compile(r"""^[ \t]*<link rel="modulepreload"[^>]*>\n""", re.MULTILINE)
_ENTRY_SCRIPT = re.compile(r"""^(?P<indent>[ \t]*)<script type="module\"""", re.MULTILINE)


def first_load_modules(root: Path, entries: tuple[str, ...] = FIRST_SCREEN) -> list[str]:
    """Every module reached from ``entries`` through static imports, paths relative to
    ``root``, in the order they are first met."""
    seen: dict[str, None] = {}
    pending = list(entries)
    while pending:
        name = pending.pop(0)
        if name in seen or not (root / name).is_file():
            continue
        seen[name] = None
        text = (root / name).read_text(encoding="utf-8")
        for match in _STATIC_IMPORT.finditer(text):
            target = match.group("from") or match.group("bare")
            pending.append(posixpath.normpath(posixpath.join(posixpath.dirname(name), target)))
    return list(seen)


def _url(name: str) -> str:
    return staticfiles_storage.url(name)


@functools.lru_cache(maxsize=4)
def _render(index: Path, mtime: float, manifest_hash: str) -> bytes:
    html = index.read_text(encoding="utf-8")
    modules = first_load_modules(index.parent)
    html = _PRELOAD.sub("", html)
    html = _STATIC_REFERENCE.sub(lambda m: f'{m.group("attr")}="{_url(m.group("name"))}"', html)
    entry = _ENTRY_SCRIPT.search(html)
    if entry:
        indent = entry.group("indent")
        links = "".join(f'{indent}<link rel="modulepreload" href="{_url(name)}">\n'
                        for name in modules if name != "app.js")
        html = html[:entry.start()] + links + html[entry.start():]
    return html.encode("utf-8")


def front_page_html() -> bytes:
    index = Path(settings.FRONTEND_DIR) / "index.html"
    manifest_hash = getattr(staticfiles_storage, "manifest_hash", "") or ""
    return _render(index, index.stat().st_mtime, manifest_hash)
