"""What the fast path's tests share, for any Foursquare game (a race's too): playing a game out
through the move endpoint, and an answer as two paths must give it alike."""

from __future__ import annotations

import uuid

from tests.server.conftest import headers_but_request_id


def play_out(api, game: dict, choose) -> list:
    """Play ``game`` to its end, the move at each turn chosen by ``choose(game)``; every
    response."""
    responses = []
    while game["status"] == "playing":
        row, col = choose(game)
        response = api.post(f"games/{game['id']}/moves", {"row": row, "col": col,
                                                          "move": game["moves_played"]},
                            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
        assert response.status_code == 200, response.content
        responses.append(response)
        game = response.json()
    return responses


def comparable(response, own_fields) -> tuple:
    """``response`` as another game's must match it: its status, every header (the cache
    headers too, server.api.headers) but the request's own id, and its body but for the game's
    ``own_fields``."""
    body = {key: value for key, value in response.json().items() if key not in own_fields}
    return response.status_code, headers_but_request_id(response), body
