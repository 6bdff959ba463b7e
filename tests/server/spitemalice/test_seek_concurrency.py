"""Two players taking one seek at once, on PostgreSQL's row locks: one gets it."""

import pytest

from server.spitemalice.models import Event, Match
from tests.server.concurrently import race

pytestmark = pytest.mark.postgresql


@pytest.mark.django_db(transaction=True)
def test_of_two_takers_of_a_seek_one_wins_and_the_other_gets_409(make_player):
    _, ada = make_player("Ada")
    takers = [make_player(f"Taker {index}")[1] for index in range(2)]
    seek = ada.post("spite-malice/seeks", {"target": 1}).json()

    responses = race(lambda index: takers[index].post(f"spite-malice/seeks/{seek['id']}/accept"),
                     count=2)

    assert sorted(r.status_code for r in responses) == [200, 409]
    loser = next(r for r in responses if r.status_code == 409)
    assert loser.json()["code"] == "match_full"
    assert Event.objects.filter(match_id=seek["id"], kind="joined").count() == 1
    assert Match.objects.get(pk=seek["id"]).status == "playing"


@pytest.mark.django_db(transaction=True)
def test_a_challenge_accepted_twice_at_once_is_joined_once(make_player):
    _, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    assert bob.patch("players/me", {"challenges": "anyone"}).status_code == 200
    challenge = ada.post("spite-malice/matches", {"opponent": "friend",
                                                  "invitee": str(bob_player.pk)}).json()

    responses = race(lambda _: bob.post(f"spite-malice/matches/{challenge['id']}/accept"),
                     count=2)

    assert sorted(r.status_code for r in responses) == [200, 409]
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"match_full"}
    assert Event.objects.filter(match_id=challenge["id"], kind="dealt").count() == 1
