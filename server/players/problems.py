"""The players' domain errors (see server.api.problems for the shape)."""

from server.api.problems import (
    Conflict,
    InvalidCredentials,
    InvalidRequest,
    NotFound,
    PermissionDenied,
    Unprocessable,
)


class NameTaken(Conflict):
    code, title = "name_taken", "That name is taken"


class UsernameTaken(Conflict):
    code, title = "username_taken", "That username is taken"


class AlreadyClaimed(Conflict):
    code, title = "already_claimed", "This account already has a username and password"


class InvalidName(InvalidRequest):
    code, title = "invalid", "Invalid name"


class PasswordTooSimilar(InvalidRequest):
    code, title = "password_too_similar", "That password is too like your username or name"


class WeakPassword(Unprocessable):
    code, title = "weak_password", "That password is too easy to guess"


class BotNotAllowed(Conflict):
    code, title = "bot_not_allowed", "This account cannot become a bot account"


class BotPermanent(Conflict):
    code, title = "bot_permanent", "A bot account stays a bot account"


class InsufficientScope(PermissionDenied):
    code, title = "insufficient_scope", "This token's scopes do not allow it"


class PlayerNotFound(NotFound):
    code, title = "not_found", "No such player"


__all__ = [
    "AlreadyClaimed", "BotNotAllowed", "BotPermanent", "InsufficientScope",
    "InvalidCredentials", "InvalidName",
    "NameTaken", "PasswordTooSimilar", "PlayerNotFound", "UsernameTaken", "WeakPassword",
]
