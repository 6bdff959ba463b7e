"""The bot's reference on a race's deal: a job enqueued by the start, played in the background,
shown with the result."""

from __future__ import annotations

import pytest

from foursquare.bot import play_deal
from server.foursquare.models import Race
from server.foursquare.races import services
from server.jobs.models import Job
from tests.server.foursquare.races.support import raced, time_up, url

pytestmark = pytest.mark.sqlite

TINY_BOT = {"seed": 0, "samples": 2, "screen": 1, "finalists": 1}


def test_the_start_enqueues_the_bot_whose_result_shows_once_the_race_finished(make_player,
                                                                              settings):
    settings.FOURSQUARE_PREPARE_BOT = TINY_BOT
    (_, ada), (_, bo) = make_player(), make_player()
    race = raced(ada, bo)
    job = Job.objects.get(kind=services.RACE_BOT, key=race["id"])

    services.race_bot_job(job.key)
    stored = Race.objects.get(pk=race["id"])
    expected = play_deal(stored.deal.deck, **TINY_BOT)
    assert (stored.bot_status, stored.bot_score) == (expected.status, expected.score)
    assert ada.get(url(race)).json()["bot"] is None  # not during the race

    time_up(race["id"])
    assert ada.get(url(race)).json()["bot"] == {"status": expected.status,
                                                "score": expected.score}
    services.race_bot_job(job.key)  # once done, nothing to do
    assert Race.objects.get(pk=race["id"]).bot_status == expected.status


def test_the_admin_lists_races(make_player, client):
    from server.players.models import Player

    (_, ada), (_, bo) = make_player(), make_player()
    race = raced(ada, bo)
    client.force_login(Player.objects.create_superuser("root", "a-long-admin-passphrase"))
    assert client.get("/admin/games/race/").status_code == 200
    assert client.get(f"/admin/games/race/{race['id']}/change/").status_code == 200
