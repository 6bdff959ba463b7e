"""Spite & Malice's domain errors (see server.api.problems for the shape). The codes both
games share (``game_over``, ``game_in_progress``, ``hints_not_allowed``, ``daily_unavailable``)
are the shared ones of ``server.api.problems``, raised here with details of their own."""

from server.api.problems import (
    Conflict,
    DailyUnavailable,
    GameInProgress,
    GameOver,
    HintsNotAllowed,
    NotFound,
    PermissionDenied,
    Unprocessable,
)

__all__ = [
    "DailyUnavailable",
    "GameInProgress",
    "GameNotFound",
    "GameOver",
    "HintsNotAllowed",
    "IllegalAction",
    "MatchNotFound",
    "NotYourTurn",
    "StaleAction",
]


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


# --- Matches between people --------------------------------------------------------------------


class InvitationNotFound(NotFound):
    code, title = "not_found", "No such invitation"


class MatchFull(Conflict):
    code, title = "match_full", "Both seats of this match are taken"


class OwnMatch(Conflict):
    code, title = "own_match", "This is your own invitation"


class MatchNotWaiting(Conflict):
    code, title = "match_not_waiting", "The match is no longer waiting for its second player"


class MatchNotStarted(Conflict):
    code, title = "match_not_started", "The match has not started: nobody has joined it yet"


class TooManyMatches(Conflict):
    code, title = "too_many_matches", "You have as many active matches as a player may have"



class CommitmentUnavailable(Conflict):
    code, title = "commitment_unavailable", "No such commitment waits for your next match"


class ClientSeedRequired(Unprocessable):
    code, title = "client_seed_required", "A commitment is mixed with a client seed you send"


class ChallengesClosed(PermissionDenied):
    code, title = "challenges_closed", "This player takes no challenges"


class SeekNotFound(NotFound):
    code, title = "not_found", "No such open seek"


class RematchUnavailable(Conflict):
    code, title = "rematch_unavailable", "No rematch can be offered for this match"


class DeadlinePassed(GameOver):
    """The answer to a write after the turn's deadline: the timeout is applied in a transaction
    of its own (the refused request's rolls back: ``services.deadline_due``), then this."""
