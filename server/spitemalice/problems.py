"""Spite & Malice's domain errors (see server.api.problems for the shape). The codes both
games share (``game_over``, ``game_in_progress``, ``hints_not_allowed``) are Foursquare's
problems, raised here with details of their own."""

from server.api.problems import Conflict, NotFound, Unprocessable
from server.games.problems import DailyUnavailable, GameInProgress, GameOver, HintsNotAllowed

__all__ = ["DailyUnavailable", "GameInProgress", "GameOver", "GameNotFound", "HintsNotAllowed",
           "IllegalAction", "MatchNotFound", "NotYourTurn", "StaleAction"]


class MatchNotFound(NotFound):
    code, title = "not_found", "No such match"


class GameNotFound(NotFound):
    code, title = "not_found", "No such game in this match"


class IllegalAction(Unprocessable):
    code, title = "illegal_action", "That action is not legal now"


class StaleAction(Conflict):
    code, title = "stale_action", "The game has moved on since you last saw it"


class NotYourTurn(Conflict):
    code, title = "not_your_turn", "It is not your turn"
