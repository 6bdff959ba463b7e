"""A race's clock (``races.clock.RaceClock``), as its socket keeps it, on a clock of the test's
own: when the race's start and end are due, whether a read then closes the race, the backing
off while a race has not moved on from an instant already fired for, and the countdown's end.
No wall clock, no wait."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from server.foursquare.races.clock import MARGIN_SECONDS, RETRY_SECONDS, RaceClock, instant

START = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def _iso(moment: datetime) -> str:
    """An instant as the API writes one."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _race(status: str, *, starts_in: float = 10.0, lasts: float = 180.0) -> dict:
    return {"status": status, "starts_at": _iso(START + timedelta(seconds=starts_in)),
            "ends_at": _iso(START + timedelta(seconds=starts_in + lasts))}


class Wall:
    """The test's wall clock: seconds since 1970, moved by hand."""

    def __init__(self) -> None:
        self.now = START.timestamp()

    def __call__(self) -> float:
        return self.now


def test_an_instant_of_the_api_is_read_as_seconds_since_1970():
    assert instant("2026-12-04T12:00:00.000000Z") == START.timestamp()
    assert instant("2026-12-04T12:00:01.500000Z") == START.timestamp() + 1.5
    assert instant(None) is None
    assert instant("") is None


def test_a_countdown_is_due_just_after_its_start_and_does_not_close_the_race():
    wall = Wall()
    clock = RaceClock(now=wall)

    delay, closing = clock.due(_race("countdown", starts_in=10))

    # Wall times are about 1.8e9 s: their sums are exact to a microsecond, not to the bit.
    assert delay == pytest.approx(10 + MARGIN_SECONDS, abs=1e-6)
    assert closing is False


def test_a_race_being_played_is_due_just_after_its_end_and_that_read_closes_it():
    wall = Wall()
    clock = RaceClock(now=wall)

    delay, closing = clock.due(_race("playing", starts_in=-60, lasts=180))

    assert delay == pytest.approx(120 + MARGIN_SECONDS, abs=1e-6)
    assert closing is True


def test_an_instant_already_past_is_due_at_once():
    wall = Wall()
    clock = RaceClock(now=wall)
    race = _race("playing", starts_in=-300, lasts=180)

    assert clock.due(race) == (0.0, True)


def test_a_race_with_nothing_to_wait_for_is_never_due():
    clock = RaceClock(now=Wall())

    assert clock.due(None) == (None, False)
    assert clock.due(_race("waiting")) == (None, False)
    assert clock.due(_race("finished")) == (None, False)
    assert clock.due({"status": "playing", "ends_at": None}) == (None, False)


def test_a_race_still_running_after_its_end_is_tried_again_backing_off_to_a_bound():
    wall = Wall()
    clock = RaceClock(now=wall)
    race = _race("playing", starts_in=-60, lasts=60)  # its end is now

    waits = []
    for _ in range(8):
        delay, closing = clock.due(race)
        assert closing is True
        wall.now += delay
        clock.fired(race)  # the read found it still running: the race as sent stays
        waits.append(clock.due(race)[0])

    first, longest = RETRY_SECONDS
    assert waits == [first, 2 * first, 4 * first, 8 * first, 16 * first, longest, longest,
                     longest]
    assert clock.tries == 8


def test_a_new_instant_starts_the_count_of_tries_again():
    wall = Wall()
    clock = RaceClock(now=wall)
    counting = _race("countdown", starts_in=0, lasts=60)
    clock.fired(counting)
    clock.fired(counting)
    assert clock.tries == 2

    playing = {**counting, "status": "playing"}
    delay, closing = clock.due(playing)
    assert (delay, closing) == (pytest.approx(60 + MARGIN_SECONDS, abs=1e-6), True)  # its end
    wall.now += delay
    clock.fired(playing)

    assert clock.tries == 1
    assert clock.fired_for == instant(playing["ends_at"])
    assert clock.due(playing) == (RETRY_SECONDS[0], True)


def test_the_countdown_is_over_once_its_start_has_come():
    wall = Wall()
    clock = RaceClock(now=wall)
    race = _race("countdown", starts_in=5)

    assert clock.countdown_over(race) is False
    starts_at = instant(race["starts_at"])
    assert starts_at is not None
    wall.now = starts_at - 0.001
    assert clock.countdown_over(race) is False
    wall.now = starts_at
    assert clock.countdown_over(race) is True
    assert clock.countdown_over({**race, "status": "playing"}) is False  # moved on already
    assert clock.countdown_over(None) is False
