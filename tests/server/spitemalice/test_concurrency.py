"""Spite & Malice races decided by the database: threads released together on PostgreSQL."""

import pytest

from server.spitemalice.models import Action, Match
from tests.server.concurrently import THREADS, race
from tests.server.spitemalice.support import act, start, url

pytestmark = pytest.mark.postgresql  # row locks under threads


@pytest.mark.django_db(transaction=True)
def test_the_same_action_sent_concurrently_is_applied_once(make_player):
    _, api = make_player()
    match = start(api, target=50)
    action = match["game"]["legal_actions"][0]

    statuses = race(lambda _: act(api, match, action).status_code)

    assert sorted(statuses) == [200] + [409] * (THREADS - 1)
    assert Action.objects.filter(match_id=match["id"], seat=0).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_action_without_a_check_is_applied_once(make_player, settings):
    _, api = make_player()
    match = start(api, target=50)
    settings.SPITE_MALICE_BOT_SECONDS = 0  # the bot's reply waits: the turn stays the bot's
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    before = Match.objects.get(pk=match["id"]).actions_played

    responses = race(lambda _: api.post(url(match, "/actions"), {"action": discard}))

    # One discard ends the turn; the rest find the turn the bot's.
    assert sorted(r.status_code for r in responses) == [200] + [409] * (THREADS - 1)
    assert {r.json()["code"] for r in responses if r.status_code != 200} == {"not_your_turn"}
    seats = list(Action.objects.filter(match_id=match["id"], number__gte=before)
                 .order_by("number").values_list("seat", flat=True))
    assert seats[0] == 0 and seats.count(0) == 1


@pytest.mark.django_db(transaction=True)
def test_retries_with_one_idempotency_key_all_get_the_first_answer(make_player):
    _, api = make_player()
    match = start(api, target=50)
    action = match["game"]["legal_actions"][0]

    responses = race(lambda _: act(api, match, action, HTTP_IDEMPOTENCY_KEY="race-1"))

    assert {r.status_code for r in responses} == {200}
    assert len({r.content for r in responses}) == 1
    assert Action.objects.filter(match_id=match["id"], seat=0).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_daily_requests_create_one_match(make_player):
    _, api = make_player()

    responses = race(lambda _: api.post("spite-malice/matches", {"mode": "daily"}))

    assert sorted(r.status_code for r in responses) == [200] * (THREADS - 1) + [201]
    assert len({r.json()["id"] for r in responses}) == 1
    assert Match.objects.filter(mode="daily").count() == 1
