"""The games' domain errors (see server.api.problems for the shape)."""

from server.api.problems import (
    Conflict,
    NotFound,
    PermissionDenied,
    ServiceUnavailable,
    Unprocessable,
)


class GameNotFound(NotFound):
    code, title = "not_found", "No such game"


class DealNotFound(NotFound):
    code, title = "not_found", "No such deal"


class IllegalMove(Unprocessable):
    code, title = "illegal_move", "That placement is not legal now"


class StaleMove(Conflict):
    code, title = "stale_move", "The game has moved on since you last saw it"


class GameOver(Conflict):
    code, title = "game_over", "The game is over"


class GameInProgress(Conflict):
    code, title = "game_in_progress", "The record is revealed only once the game is over"


class DailyUnavailable(Unprocessable):
    code, title = "daily_unavailable", "That daily cannot be played now"


class DealUnavailable(Unprocessable):
    code, title = "deal_unavailable", "That deal cannot be replayed yet"


class IdempotencyKeyReused(Unprocessable):
    code, title = "idempotency_key_reused", "This Idempotency-Key was used for another request"


class HintsNotAllowed(PermissionDenied):
    code, title = "hints_not_allowed", "No hints in this game"


class AnalysisUnavailable(ServiceUnavailable):
    code, title = "analysis_unavailable", "The analysis could not be computed"


class ChallengeNotFound(NotFound):
    code, title = "not_found", "No such challenge"
