"""Write the AsyncAPI document ``GET /api/asyncapi/`` serves, for the reference parser's test
(``tests/asyncapi/parser.test.mjs``). The document is built from the code alone (the OpenAPI
document's components and each socket's section), so no database is needed.

    .venv/bin/python tests/asyncapi/write_document.py OUT.json

``make test-js`` runs it before ``node --test``; the node test runs it itself when its file is
missing.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
# STATIC_ROOT only exists after collectstatic (`make run`), and the document needs no static
# file: whitenoise's warning about it is the one pyproject.toml's pytest settings ignore too.
warnings.filterwarnings("ignore", "No directory at", UserWarning)

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402

HOST = "localhost"  # always among the allowed hosts of the defaults


def main(out: Path) -> None:
    answer = Client(HTTP_HOST=HOST).get("/api/asyncapi/")
    if answer.status_code != 200:
        raise SystemExit(f"GET /api/asyncapi/ answered {answer.status_code}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(answer.json(), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]))
