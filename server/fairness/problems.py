"""The fairness log's errors (see server.api.problems for the shape)."""

from server.api.problems import NotFound


class UnknownGame(NotFound):
    code, title = "not_found", "No such game"


class UnknownDate(NotFound):
    code, title = "not_found", "No such date"


class UnknownKey(NotFound):
    code, title = "not_found", "No such key"
