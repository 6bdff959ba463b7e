"""Spite & Malice, the two-player card race: a pure, standard-library game engine.

>>> from spitemalice import Game
>>> game = Game(b"1:0")
>>> game.turn, game.legal_actions()[:2]
(1, [Action(source='4H', target='S0'), Action(source='4H', target='S1')])
>>> result = game.play(("9D", "S0"))
>>> game.status, game.turn
('playing', 0)
"""

from spitemalice.actions import Action
from spitemalice.cards import ALL_CARDS, CANONICAL_CODES, DECK_SIZE, Card
from spitemalice.dealing import deal
from spitemalice.errors import IllegalActionError, ParseError
from spitemalice.game import PLAYING, TIED, WON, Game, PlayResult, Position, Status
from spitemalice.match import Match, game_seed
from spitemalice.records import Record, Replay, dumps_record, load_record, loads_record, replay
from spitemalice.view import PlayerView, player_view, unseen_cards, unseen_ranks

CARD_CODES = CANONICAL_CODES  # the 52 codes of one deck, in canonical order

__all__ = [
    "ALL_CARDS", "CARD_CODES", "DECK_SIZE", "PLAYING", "TIED", "WON", "Action", "Card", "Game",
    "IllegalActionError", "Match", "ParseError", "PlayResult", "PlayerView", "Position", "Record",
    "Replay", "Status", "deal", "dumps_record", "game_seed", "load_record", "loads_record",
    "player_view", "replay", "unseen_cards", "unseen_ranks",
]
