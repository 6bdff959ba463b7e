"""The bridge to the engine: rebuild a stored game's position, and what a player may see."""

from __future__ import annotations

import functools

from django.utils import timezone

from foursquare import Card, PreviewView, move_previews, parse_deck, player_view
from foursquare import Game as EngineGame
from server.api.formats import iso_datetime
from server.foursquare.models import Game, Race


@functools.lru_cache(maxsize=4096)
def _deck(cards: str) -> tuple[Card, ...]:
    """A deal's cards, parsed once per process: every move replays its game from them."""
    return parse_deck(cards.split())


def rebuild(game: Game) -> EngineGame:
    """The engine's game in the stored game's position, by replaying its moves."""
    engine = EngineGame(_deck(game.deal.cards))
    for row, col in game.move_list:
        engine.play((row, col))
    return engine


def deal_shown(game: Game) -> bool:
    """Whether ``game``'s deal id may be shown: always, but for a race game until its race has
    finished (a practice game on it would show the cards the others are still to draw). A race
    game still being played belongs to a race not finished, so no move asks for the race."""
    if game.race_id is None:
        return True
    if not game.is_over:
        return False
    race = game._state.fields_cache.get("race")
    if race is not None:
        return race.status == Race.Status.FINISHED
    return Race.objects.filter(pk=game.race_id, status=Race.Status.FINISHED).exists()


def not_open_yet(game: Game, now=None) -> bool:
    """Whether ``game`` is a race game whose race has not started: nothing of its deal shows."""
    return game.opens_at is not None and (now or timezone.now()) < game.opens_at


def game_output(game: Game, engine: EngineGame | None = None) -> dict:
    """The API's game object: the engine's player view plus the stored game's identity.

    Nothing here can name an undrawn card or a face-down rank: the position part is exactly
    ``player_view``, and ``previews`` is computed from nothing else (``move_previews``).
    """
    engine = engine if engine is not None else rebuild(game)
    daily = game.daily
    view = player_view(engine)
    if game.status == Game.Status.UNFINISHED:
        # The rules did not end it, its date did: over, with nothing left to play.
        view["status"], view["legal_moves"] = game.status, []
        previews: list[PreviewView] = []
    elif not_open_yet(game):
        # A race's countdown: every racer sees the deal's first card at the same moment, the
        # start, so nobody plans a move in the seconds before it.
        view["current_card"], view["legal_moves"] = None, []
        previews = []
    else:
        previews = move_previews(engine)
    return {
        "id": str(game.pk),
        "mode": game.mode,
        "date": daily.date.isoformat() if daily is not None else None,
        "number": daily.number if daily is not None else None,
        "deal": game.deal_id if deal_shown(game) else None,
        "race": str(game.race_id) if game.race_id is not None else None,
        **view,
        "previews": previews,
        "created_at": iso_datetime(game.created_at),
        "finished_at": iso_datetime(game.finished_at),
        "ranked": game.ranked,
    }


def record_output(game: Game) -> dict:
    return {
        "deck": game.deal.cards.split(),
        "moves": [list(move) for move in game.move_list],
        "status": game.status,
        "score": game.score,
    }
