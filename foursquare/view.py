"""What a player may see of a game, in one place (RULES.md, "What a player may see").

The server serialises this and nothing else while a game is on: the current card, each pile's
height, the top card of every face-up pile, which piles are face down (never their ranks), the
stock count, the legal moves and the last move; and, from just those, what each legal
placement would do (``move_previews``). The deck, the order of the stock and the ranks
of face-down cards never appear here; they are revealed by the record once the game is over.
"""

from __future__ import annotations

from typing import TypedDict

from foursquare.game import Game


class CellView(TypedDict):
    row: int
    col: int
    height: int
    face_up: bool
    card: str | None  # None when the top card is face down


class LastMoveView(TypedDict):
    card: str
    at: list[int]
    flipped: list[list[int]]


class PreviewView(TypedDict):
    at: list[int]
    flipped: list[list[int]]
    face_down: int
    status: str


class PlayerView(TypedDict):
    status: str
    score: int | None
    moves_played: int
    current_card: str | None  # None once the game is over
    stock: int  # cards left in the stock, not counting the current card
    face_down: int
    grid: list[CellView]
    legal_moves: list[list[int]]
    last_move: LastMoveView | None


def player_view(game: Game) -> PlayerView:
    """The JSON-ready view of ``game`` that a player is allowed to see."""
    current = game.current
    last = game.last_move
    return {
        "status": game.status,
        "score": game.score,
        "moves_played": game.moves_played,
        "current_card": str(current) if current is not None else None,
        "stock": game.stock,
        "face_down": game.face_down,
        "grid": [
            {
                "row": row,
                "col": col,
                "height": pile.height,
                "face_up": pile.face_up,
                "card": str(pile.top) if pile.face_up else None,
            }
            for (row, col), pile in game.grid().items()
        ],
        "legal_moves": [[row, col] for row, col in game.legal_moves()],
        "last_move": (
            {
                "card": str(last.card),
                "at": list(last.at),
                "flipped": [list(position) for position in last.flipped],
            }
            if last is not None
            else None
        ),
    }


def move_previews(game: Game) -> list[PreviewView]:
    """What placing the current card at each legal move would do, in ``legal_moves`` order:
    the piles it would turn over, the face-down count after, and the status after.

    Every one of these follows from what ``player_view`` already shows (the current card, the
    face-up ranks, which piles are face down, the cards played), never from the stock or a
    face-down rank: the flipping rule compares face-up ranks only, and a face-down pile turns
    or not whatever it hides. Each preview is the engine's own ``play`` of that move, undone.
    """
    previews: list[PreviewView] = []
    for position in game.legal_moves():
        result = game.play(position)
        game.undo()
        previews.append({
            "at": list(result.at),
            "flipped": [list(flipped) for flipped in result.flipped],
            "face_down": result.face_down,
            "status": result.status,
        })
    return previews
