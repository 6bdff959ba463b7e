"""Every read of a match, a game or a race shows it as its clock says: a turn past its
deadline is lost, an invitation past its days expired, a daily whose date closed unfinished,
a race whose time is up finished. The clocks are applied where the views fetch them (the
games' selectors), so these tests walk every route of the two games that names one: a read
added without them fails here, whatever its view is."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.urls import URLPattern

from server.foursquare import urls as foursquare_urls
from server.foursquare.models import Game, Race
from server.spitemalice import urls as spitemalice_urls
from server.spitemalice.models import Match
from tests.server.foursquare.races.support import raced, time_up
from tests.server.results import daily_result
from tests.server.spitemalice.friend_support import aged, invite, overdue, pair

pytestmark = pytest.mark.django_db

# Routes that name a game but never read it as its player's: a challenge link shows only a
# finished practice or archive game, to anyone.
NOT_THE_PLAYERS = {"challenge"}


def _reads(patterns: list, parameter: str) -> list[URLPattern]:
    """The routes among ``patterns`` that take ``parameter`` and answer GET."""
    found = [pattern for pattern in patterns
             if f"<uuid:{parameter}>" in str(pattern.pattern)
             and hasattr(pattern.callback.view_class, "get")
             and pattern.name not in NOT_THE_PLAYERS]
    assert found, f"no route reads a {parameter}"
    return found


def _path(pattern: URLPattern, **values) -> str:
    """The route's path (under /api/v1/) with its parameters filled in: ids from ``values``,
    any number 1."""
    text = str(pattern.pattern)
    for name, value in values.items():
        text = text.replace(f"<uuid:{name}>", str(value))
    return re.sub(r"<int:\w+>", "1", text)


def _ids(patterns: list[URLPattern]) -> list[str]:
    return [pattern.name or str(pattern.pattern) for pattern in patterns]


MATCH_READS = _reads(spitemalice_urls.urlpatterns, "match_id")
GAME_READS = _reads(foursquare_urls.urlpatterns, "game_id")
RACE_READS = _reads(foursquare_urls.urlpatterns, "race_id")


def _spite_malice(path: str) -> str:
    return f"spite-malice/{path}"


@pytest.mark.parametrize("route", MATCH_READS, ids=_ids(MATCH_READS))
def test_a_turn_past_its_deadline_is_lost_on_every_read_of_its_match(route, make_player):
    apis, views = pair(make_player, turn_seconds=60)
    match_id = views[0]["id"]
    overdue(match_id)
    waiting = Match.objects.get(pk=match_id).turn
    apis[1 - waiting].get(_spite_malice(_path(route, match_id=match_id)))
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.reason) == (Match.Status.ABORTED, Match.Reason.TIMEOUT)


@pytest.mark.parametrize("route", MATCH_READS, ids=_ids(MATCH_READS))
def test_an_invitation_past_its_days_expires_on_every_read_of_it(route, make_player):
    _, ada = make_player("Ada")
    match_id = invite(ada)["id"]
    aged(match_id)
    ada.get(_spite_malice(_path(route, match_id=match_id)))
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.reason) == (Match.Status.CANCELLED, Match.Reason.EXPIRED)


@pytest.mark.parametrize("route", MATCH_READS, ids=_ids(MATCH_READS))
def test_a_spite_malice_daily_whose_date_closed_is_over_on_every_read(route, player_api,
                                                                      dailies_clock):
    match_id = player_api.post("spite-malice/matches", {"mode": "daily"}).json()["id"]
    assert Match.objects.get(pk=match_id).status == Match.Status.PLAYING
    dailies_clock.set(dailies_clock.now + timedelta(days=3))
    player_api.get(_spite_malice(_path(route, match_id=match_id)))
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.reason) == (Match.Status.FINISHED, Match.Reason.UNFINISHED)


def _closed_daily(make_player, dailies_clock) -> tuple[object, Callable[[], Game]]:
    player, api = make_player()
    game = daily_result(player, dailies_clock.today, status="playing")
    dailies_clock.set(dailies_clock.now + timedelta(days=3))
    return api, lambda: Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("route", GAME_READS, ids=_ids(GAME_READS))
def test_a_foursquare_daily_whose_date_closed_is_over_on_every_read(route, make_player,
                                                                    dailies_clock):
    api, reload = _closed_daily(make_player, dailies_clock)
    assert reload().status == Game.Status.PLAYING
    api.get(_path(route, game_id=reload().pk))
    assert reload().status == Game.Status.UNFINISHED


@pytest.mark.parametrize("path", ["games", "daily?date={day}"])
def test_a_foursquare_daily_whose_date_closed_is_over_in_the_lists(path, make_player,
                                                                   dailies_clock):
    api, reload = _closed_daily(make_player, dailies_clock)
    api.get(path.format(day=reload().daily_id))
    assert reload().status == Game.Status.UNFINISHED


@pytest.mark.parametrize("path", ["spite-malice/matches", "spite-malice/daily?date={day}"])
def test_a_spite_malice_daily_whose_date_closed_is_over_in_the_lists(path, player_api,
                                                                     dailies_clock):
    match_id = player_api.post("spite-malice/matches", {"mode": "daily"}).json()["id"]
    dailies_clock.set(dailies_clock.now + timedelta(days=3))
    player_api.get(path.format(day=Match.objects.get(pk=match_id).daily))
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.reason) == (Match.Status.FINISHED, Match.Reason.UNFINISHED)


@pytest.mark.parametrize("route", [*GAME_READS, *RACE_READS],
                         ids=_ids([*GAME_READS, *RACE_READS]))
def test_a_race_whose_time_is_up_is_finished_on_every_read(route, make_player):
    _, host = make_player("Host")
    _, guest = make_player("Guest")
    race = raced(host, guest)
    time_up(race["id"])
    game = Game.objects.get(race_id=race["id"], player__name="Host")
    host.get(_path(route, game_id=game.pk, race_id=race["id"]))
    assert Race.objects.get(pk=race["id"]).status == Race.Status.FINISHED
    assert Game.objects.get(pk=game.pk).status == Game.Status.UNFINISHED
