"""The races' domain errors (see server.api.problems for the shape)."""

from server.api.problems import Conflict, NotFound, PermissionDenied


class RaceNotFound(NotFound):
    code, title = "race_not_found", "No such race"


class RaceStarted(Conflict):
    code, title = "race_started", "The race is no longer waiting for racers"


class RaceFull(Conflict):
    code, title = "race_full", "Every seat of this race is taken"


class NotRaceHost(PermissionDenied):
    code, title = "not_race_host", "Only the race's host may do this"


class RaceNotReady(Conflict):
    code, title = "race_not_ready", "A race needs at least two racers"


class RaceNotStarted(Conflict):
    code, title = "race_not_started", "The race has not started yet"


class OutOfTime(Conflict):
    code, title = "out_of_time", "The race's time is up"


class RaceNotFinished(Conflict):
    code, title = "race_not_finished", "The race has not finished yet"

