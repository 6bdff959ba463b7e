"""Telling a race's sockets what happened: notices on the channel layer, group
``races.<race id hex>`` (``server.foursquare.races.consumers`` listens).

``progress_published`` carries what the process that stored a move already holds: the mover's
progress (counts only) and their board, built from the engine in hand, so no socket reads the
database to pass a move on. The board is for the racers who may watch (their own game over, or
the race finished): the consumer drops it for anyone still playing, since all racers share
one card order. ``race_changed`` is a bare notice: the race itself changed (a racer joined or
left, it started or finished, ``next_race`` was set), rare enough for each socket to read it.

Both leave only once the transaction that stored the change commits (at once when none is
open, as after the fast path's single statement), and neither waits for the channel layer
(``server.api.notices``).
"""

from __future__ import annotations

import uuid

from django.db import transaction

from server.api import notices
from server.foursquare.races.selectors import board_of, progress_of

PROGRESS = "race.progress"  # the consumer's ``race_progress``
CHANGED = "race.changed"  # the consumer's ``race_changed``


def group_of(race_id) -> str:
    """The channel-layer group of a race's sockets."""
    return f"races.{uuid.UUID(str(race_id)).hex}"


def progress_notice(game, engine) -> tuple[str, dict]:
    """The notice of ``game``'s move, from ``engine`` (the engine's game after it): the mover's
    progress and board, no database read."""
    return group_of(game.race_id), {
        "type": PROGRESS,
        "player": str(game.player_id),
        "progress": progress_of(game, engine),
        "board": board_of(engine),
    }


def progress_published(game, engine) -> None:
    """Tell the race's sockets that ``game`` (a race game) moved; ``engine`` is its engine's
    game after the move."""
    notice = progress_notice(game, engine)
    transaction.on_commit(lambda: notices.send(notice))


def race_changed(race_id) -> None:
    """Tell the race's sockets that the race itself changed: each reads it again."""
    notice = (group_of(race_id), {"type": CHANGED})
    transaction.on_commit(lambda: notices.send(notice))
