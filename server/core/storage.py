"""Static files with content-hashed names, so they can be cached for a year and never go stale.

The front end is native ES modules with no build step; hashing them means rewriting every
``import … from "./x.js"`` and ``import("./x.js")`` to the hashed name, which Django's manifest
storage does once ``support_js_module_import_aggregation`` is on. WhiteNoise then compresses
each file (gzip, and Brotli with the ``Brotli`` package) and serves the hashed names with
``Cache-Control: max-age=315360000, public, immutable``.
"""

from __future__ import annotations

from typing import Any

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

try:
    import brotli
except ImportError:  # pragma: no cover - a pinned dependency; gzip alone still works
    brotli = None

# Brotli's best quality (11) for the app's own files, which every player downloads; the large
# bundles of the admin and the API docs (Swagger UI, ReDoc: megabytes each) get a quick one,
# which keeps `collectstatic` (run by `make run`) to seconds rather than a minute.
SMALL_FILE = 256 * 1024
QUICK_QUALITY = 5


class _Compressor(Compressor):
    # Source maps are for developers' tools, which fetch them uncompressed anyway.
    SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

    @staticmethod
    def compress_brotli(data: bytes) -> bytes:
        quality = 11 if len(data) <= SMALL_FILE else QUICK_QUALITY
        return brotli.compress(data, quality=quality)


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
