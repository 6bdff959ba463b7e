"""The Python's answers for the browser's fairness checks (``tests/frontend/fairness.test.mjs``):
both engines' ``deal()`` and the encodings of docs/FAIRNESS.md (``fairness.encoding``) on
deterministic inputs, so the JavaScript ports (``frontend/fairness/model.js``,
``frontend/foursquare/model/deal.js``, ``frontend/spitemalice/model/deal.js``) are held to them.

Inputs: seeds derived from a counter (SHA-256 of ``"fixture/<n>"``), short byte seeds of other
lengths (an HMAC key of any length), every shared Spite & Malice vector's game seed
(``tests/spitemalice/vectors/``, the repository's copy of ``../shared/spite-malice-vectors/``),
and client seeds at the edges of what is allowed (one character, 64, a space, a tilde, a seat
without one). The same command writes the same file; no database is needed.

    .venv/bin/python tests/frontend/fairness_fixtures.py OUT.json [--seeds N]

``make test-js`` runs it before ``node --test``; the node test runs it itself when its file is
missing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from fairness.encoding import (  # noqa: E402
    Entry,
    daily_commitment,
    deal_seed,
    entry_hash,
    server_seed_commitment,
)
from foursquare.dealing import deal as foursquare_deal  # noqa: E402
from spitemalice.dealing import deal as spitemalice_deal  # noqa: E402
from spitemalice.match import game_seed  # noqa: E402

VECTORS = ROOT / "tests" / "spitemalice" / "vectors"
SEEDS = 40
CLIENT_SEED_SETS: list[list[str | None]] = [
    ["a", None], ["~" * 64, " "], ["0123456789abcdef0123456789abcdef", None],
    ["host seed", "second racer", "x"], [None, None], ["!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}"],
]


def seed_of(index: int) -> bytes:
    return hashlib.sha256(f"fixture/{index}".encode()).digest()


def deck(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def seed_case(index: int) -> dict[str, Any]:
    """One 32-byte seed: each game's deal, a match's first two games, and the commitments."""
    seed = seed_of(index)
    day = date(2026, 1, 1) + timedelta(days=index * 11)
    subject = f"match/{hashlib.sha256(seed).hexdigest()[:8]}-0000-4000-8000-{index:012d}"
    clients = CLIENT_SEED_SETS[index % len(CLIENT_SEED_SETS)]
    entry = Entry(seq=index + 1, previous=hashlib.sha256(seed + b"p").hexdigest(),
                  key_id=seed.hex()[:16], kind="daily", game="foursquare",
                  subject=day.isoformat(), commitment=seed.hex(),
                  committed_at=f"{day.isoformat()}T0{index % 10}:15:00.{index:06d}Z")
    return {
        "seed": seed.hex(),
        "foursquare": deck(foursquare_deal(seed)),
        "spitemalice": deck(spitemalice_deal(seed)),
        "match_games": [deck(spitemalice_deal(game_seed(seed, n))) for n in (0, 1)],
        "game_seeds": [game_seed(seed, n).hex() for n in (0, 1)],
        "daily": {"game": "spitemalice" if index % 2 else "foursquare", "date": day.isoformat(),
                  "attempt": index % 3,
                  "commitment": daily_commitment("spitemalice" if index % 2 else "foursquare",
                                                 day, index % 3, seed.hex())},
        "server": {"game": "spitemalice", "subject": subject,
                   "commitment": server_seed_commitment("spitemalice", subject, seed.hex())},
        "client_seeds": clients,
        "deal_seed": deal_seed(seed.hex(), clients).hex(),
        "entry": {**entry.__dict__, "hash": entry_hash(entry)},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, default=SEEDS)
    args = parser.parse_args(argv)
    short = [b"x", b"foursquare", b"2026-11-29", bytes(range(70))]
    vectors = []
    for path in sorted(VECTORS.glob("*.json")):
        seed = bytes.fromhex(json.loads(path.read_text())["seed"])
        vectors.append({"name": path.stem, "seed": seed.hex(),
                        "spitemalice": deck(spitemalice_deal(seed))})
    fixtures = {
        "seeds": [seed_case(index) for index in range(args.seeds)],
        "short_seeds": [{"seed": raw.hex(), "foursquare": deck(foursquare_deal(raw)),
                         "spitemalice": deck(spitemalice_deal(raw))} for raw in short],
        "sm_vectors": vectors,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(fixtures, separators=(",", ":")), encoding="utf-8")


if __name__ == "__main__":
    main()
