"""Static files with content-hashed names, so they can be cached for a year and never go stale.

The front end is native ES modules with no build step; hashing them means rewriting every
``import … from "./x.js"`` and ``import("./x.js")`` to the hashed name, which Django's manifest
storage does once ``support_js_module_import_aggregation`` is on. WhiteNoise then compresses
each file (gzip, and Brotli with the ``Brotli`` package) and serves the hashed names with
``Cache-Control: max-age=315360000, public, immutable``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from django.conf import settings
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

try:
    import brotli
except ImportError:  # pragma: no cover - a pinned dependency; gzip alone still works
    brotli = None

# Brotli's best quality (11) for the app's own files, which every player downloads; the files
# of the other apps (the admin, DRF's browsable API, the API docs' Swagger UI and ReDoc), which
# players never fetch, and any large bundle get a quick one. That keeps `collectstatic`, a
# first `make run`'s longest step, short: the other apps' files at quality 11 were a third of
# its CPU (docs/OPERATIONS.md, "A first start").
SMALL_FILE = 256 * 1024
QUICK_QUALITY = 5
# The compressor runs on a pool of threads, one file each: the file's origin travels to
# ``compress_brotli`` in the thread's own slot.
_file = threading.local()


def _own_names() -> frozenset[str]:
    """The top-level names the front end's files are collected under (the app's own)."""
    return frozenset(path.name for folder in settings.STATICFILES_DIRS
                     for path in Path(folder).iterdir())


class _Compressor(Compressor):
    # Source maps are for developers' tools, which fetch them uncompressed anyway.
    SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.own_names = _own_names()
        self.root = Path(settings.STATIC_ROOT)

    def compress(self, path: str) -> list[str]:
        relative = Path(path).relative_to(self.root) if path.startswith(str(self.root)) else None
        _file.own = relative is not None and relative.parts[0] in self.own_names
        return super().compress(path)

    def compress_brotli(self, data: bytes) -> bytes:
        best = len(data) <= SMALL_FILE and getattr(_file, "own", True)
        return brotli.compress(data, quality=11 if best else QUICK_QUALITY)


class FrontendStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    # Each pass settles the names one more import deep; the modules' chains run deeper than
    # Django's default of 5 (app.js → today.js → result.js → replay-view.js → …).
    max_post_process_passes = 30

    def create_compressor(self, **kwargs: Any) -> Compressor:
        if kwargs.get("extensions") is None:
            kwargs["extensions"] = _Compressor.SKIP_COMPRESS_EXTENSIONS
        return _Compressor(**kwargs)

    def stored_name(self, name: str) -> str:
        # Nothing collected (the tests and `runserver` serve the sources through the static
        # finders): the plain names are the ones that exist, so a page still loads.
        if not self.hashed_files:
            return name
        return super().stored_name(name)
