"""The encodings of docs/FAIRNESS.md and their checks, standard library only.

The server commits with these functions and both games' ``verify`` commands check with them,
so the two can never disagree about a byte. Signatures need the ``cryptography`` package,
imported only where one is made or checked.
"""

from fairness.encoding import (
    CLIENT_SEED_MAX,
    GENESIS,
    ClientSeedError,
    Entry,
    check_client_seed,
    daily_commitment,
    deal_seed,
    entry_body,
    entry_hash,
    format_time,
    key_id,
    server_seed_commitment,
)

__all__ = [
    "CLIENT_SEED_MAX", "GENESIS", "ClientSeedError", "Entry", "check_client_seed",
    "daily_commitment", "deal_seed", "entry_body", "entry_hash", "format_time", "key_id",
    "server_seed_commitment",
]
