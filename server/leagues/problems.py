"""The leagues' domain errors (see server.api.problems for the shape)."""

from server.api.problems import Conflict, NotFound, PermissionDenied, Unprocessable


class LeagueNotFound(NotFound):
    code, title = "not_found", "No such league"


class NotOwner(PermissionDenied):
    code, title = "not_owner", "Only the league's owner may do this"


class AlreadyMember(Conflict):
    code, title = "already_member", "You are already in this league"


class LeagueFull(Conflict):
    code, title = "league_full", "This league has no room left"


class TooManyLeagues(Unprocessable):
    code, title = "league_limit", "You are in as many leagues as a player may be"


class NotALeagueMate(Unprocessable):
    """Shared by every game that lets a player invite league mates directly."""

    code, title = "not_a_league_mate", "You may invite directly only a member of a league of yours"
