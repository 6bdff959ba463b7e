"""The boards' domain errors (see server.api.problems for the shape)."""

from server.api.problems import NotFound


class BoardNotFound(NotFound):
    code, title = "not_found", "No such leaderboard"
