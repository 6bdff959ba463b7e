"""The match list's ``your_turn``, ``?turn=me`` and ``?status=``, with the keyset cursor."""

from __future__ import annotations

import pytest

from tests.server.conftest import assert_problem
from tests.server.spitemalice.friend_support import MATCHES, invite, pair, take_turn
from tests.server.spitemalice.support import url

pytestmark = pytest.mark.django_db


def listed(api, **params) -> list[dict]:
    """Every match of the list with ``params``, page by page through the ``next`` links."""
    matches, response = [], api.get(MATCHES, {"limit": 2, **params})
    while True:
        assert response.status_code == 200, response.content
        body = response.json()
        matches += body["results"]
        if body["next"] is None:
            return matches
        response = api.get(body["next"])


def test_your_turn_and_the_filters(make_player):
    apis, views = pair(make_player)  # Ada and Bob, one match being played
    ada, bob = apis[0], apis[1]
    _, cy = make_player("Cy")
    open_invitation = invite(ada)  # waiting, nobody's turn
    cancelled = invite(ada)
    assert ada.post(url(cancelled, "/cancel")).status_code == 200
    bot = ada.post(MATCHES, {"opponent": "bot", "level": "easy"}).json()  # Ada's turn

    everything = listed(ada)
    assert len(everything) == 4
    mine = {match["id"]: match["your_turn"] for match in everything}
    seat = views[0]["game"]["turn"]
    assert mine == {views[0]["id"]: seat == 0, open_invitation["id"]: False,
                    cancelled["id"]: False, bot["id"]: True}
    assert [m["id"] for m in listed(ada, turn="me")] == [
        m["id"] for m in everything if m["your_turn"]]
    assert {m["id"] for m in listed(ada, status="waiting,cancelled")} == {
        open_invitation["id"], cancelled["id"]}
    assert {m["id"] for m in listed(ada, status="playing,cancelled")} == {
        views[0]["id"], cancelled["id"], bot["id"]}
    assert [m["id"] for m in listed(ada, turn="me", status="waiting")] == []

    # The turn passes: the list follows.
    views = take_turn(apis, views)
    for api, you in ((ada, 0), (bob, 1)):
        shown = {m["id"] for m in listed(api, turn="me")}
        assert (views[0]["id"] in shown) == (views[0]["game"]["turn"] == you)
    assert listed(cy, turn="me") == []


def test_an_invitation_to_you_waits_for_your_action(make_player):
    _ada_player, ada = make_player("Ada")
    bob_player, bob = make_player("Bob")
    league = ada.post("leagues", {"name": "Card table"}).json()
    assert bob.post("leagues/join", {"code": league["code"]}).status_code == 200
    match = invite(ada, invitee=str(bob_player.pk))
    (shown,) = listed(bob, turn="me")
    assert shown["id"] == match["id"] and shown["your_turn"] is True
    assert listed(ada, turn="me") == []


@pytest.mark.parametrize("query", [{"turn": "you"}, {"turn": ""}, {"status": "over"},
                                   {"status": "playing,"}, {"status": "playing,won"},
                                   {"status": ["playing", "waiting"]}])
def test_unknown_values_are_400_invalid(player_api, query):
    body = assert_problem(player_api.get(MATCHES, query), 400, "invalid")
    assert body["errors"] and {error["field"] for error in body["errors"]} <= {"turn",
                                                                              "status"}
