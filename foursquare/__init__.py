"""Foursquare, the card solitaire: a pure, standard-library game engine.

>>> from foursquare import Game, deal
>>> game = Game(deal(b"example seed"))
>>> game.legal_moves()
[(0, 0)]
>>> result = game.play((0, 0))
>>> game.status
'playing'
"""

from foursquare.cards import ALL_CARDS, DECK_SIZE, Card, deck_codes, parse_deck
from foursquare.dealing import deal
from foursquare.errors import IllegalMoveError, ParseError
from foursquare.game import LOST, PLAYING, WON, Game, MoveResult, Pile, Status
from foursquare.geometry import Position, parse_position
from foursquare.records import Record, Replay, dumps_record, load_record, loads_record, replay
from foursquare.view import PlayerView, PreviewView, move_previews, player_view

__all__ = [
    "ALL_CARDS", "DECK_SIZE", "LOST", "PLAYING", "WON", "Card", "Game", "IllegalMoveError",
    "MoveResult", "ParseError", "Pile", "PlayerView", "Position", "PreviewView", "Record",
    "Replay", "Status", "deal", "deck_codes", "dumps_record", "load_record", "loads_record",
    "move_previews", "parse_deck", "parse_position", "player_view", "replay",
]
