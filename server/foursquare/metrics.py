"""Foursquare's own metrics, in the service's registry (``server.core.metrics``): the moves
stored and refused. docs/OPERATIONS.md, "Metrics", describes them."""

from __future__ import annotations

from prometheus_client import Counter

from server.core.metrics import PREFIX, REGISTRY

moves_stored = Counter(
    f"{PREFIX}_moves_stored", "Foursquare moves stored, by the path that answered them (fast: "
    "the two-statement path; full: the view).", ["path"], registry=REGISTRY)
moves_refused = Counter(
    f"{PREFIX}_moves_refused", "Foursquare moves refused as illegal (422 illegal_move) or "
    "stale (409 stale_move).", ["reason"], registry=REGISTRY)

# The children the paths count with, looked up once.
moves_stored_fast = moves_stored.labels("fast")
moves_stored_full = moves_stored.labels("full")
moves_illegal = moves_refused.labels("illegal")
moves_stale = moves_refused.labels("stale")
