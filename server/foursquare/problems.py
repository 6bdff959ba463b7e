"""Foursquare's domain errors (see server.api.problems for the shape, and for the codes both
games share)."""

from server.api.problems import (
    Conflict,
    NotFound,
    ServiceUnavailable,
    Throttled,
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


class DealUnavailable(Unprocessable):
    code, title = "deal_unavailable", "That deal cannot be replayed yet"


class AnalysisUnavailable(ServiceUnavailable):
    code, title = "analysis_unavailable", "The analysis could not be computed"


class AnalysisPending(Throttled):
    code, title = "analysis_pending", "Another of your analyses is still being computed"


class ChallengeNotFound(NotFound):
    code, title = "not_found", "No such challenge"
