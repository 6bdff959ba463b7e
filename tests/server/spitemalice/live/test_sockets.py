"""Two real clients over real HTTP and WebSocket against the real server (gunicorn, 2 uvicorn
workers), PostgreSQL and Redis: a friend match's events on both sockets, in order, exactly the
feed of each seat; catch-up on reconnect; events published by another process; refusals;
presence; ping."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest
from django.db import transaction
from websockets.exceptions import InvalidStatus

from server.players import services as players
from server.spitemalice import services
from server.spitemalice.models import Match
from tests.make_run import call
from tests.server.spitemalice.live.support import Socket, feed
from tests.server.spitemalice.support import cards_in, engine_of, greedy
from tests.server.spitemalice.test_matches import assert_shows_only_what_seat_sees, visible

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


def path(match_id, after: int | None = None) -> str:
    return f"/ws/spite-malice/matches/{match_id}" + ("" if after is None else f"?after={after}")


def connect(server, match_id, token, after: int | None = None) -> Socket:
    socket = Socket(server.ws(path(match_id, after), token=token), after=after)
    socket.until(lambda message: message["type"] == "ready")
    return socket


def match_of(server, match_id, token) -> dict:
    status, match = call(server.base, "GET", f"/api/v1/spite-malice/matches/{match_id}",
                         token=token)
    assert status == 200, match
    return match


def play(server, match: dict, token: str) -> dict:
    """The seat's greedy action over REST, as last seen in ``match``; the answer."""
    game = match["game"]
    status, answer = call(server.base, "POST", f"/api/v1/spite-malice/matches/{match['id']}"
                          "/actions", {"action": greedy(game), "game": game["number"],
                                       "actions": game["actions"]}, token=token)
    assert status == 200, answer
    return answer


def test_both_sockets_get_every_event_of_their_own_seat_in_order(server, table):
    """A whole game played over REST by two people, each holding a socket: each socket gets
    exactly its seat's feed as it happens, numbered on without a gap or a repeat, and never a
    card drawn by the other seat."""
    match, tokens = table
    sockets = {seat: connect(server, match.pk, tokens[seat], after=0) for seat in (0, 1)}
    assert [sockets[seat].ready["seat"] for seat in (0, 1)] == [0, 1]
    assert sockets[0].ready["last"] == Match.objects.get(pk=match.pk).event
    views = {seat: match_of(server, match.pk, tokens[seat]) for seat in (0, 1)}
    for _ in range(1000):
        if views[0]["status"] == "finished":
            break
        turn = views[0]["game"]["turn"]
        answer = play(server, views[turn], tokens[turn])
        for seat in (0, 1):  # both sockets hear of it before anyone plays on
            sockets[seat].through(answer["event"])
        views = {turn: answer, 1 - turn: match_of(server, match.pk, tokens[1 - turn])}
    else:
        raise AssertionError("the game did not end")

    final = Match.objects.get(pk=match.pk).event
    for seat in (0, 1):
        socket = sockets[seat]
        assert socket.events == feed(server.base, match.pk, tokens[seat])
        assert [event["number"] for event in socket.events] == list(range(1, final + 1))
        assert socket.events[-1]["kind"] == "match_over"
        assert socket.quiet(0.3) == []  # nothing more, nothing twice
    # What only the drawing seat may see never reaches the other's socket, and the two seats'
    # views differ exactly there.
    for mine, theirs in zip(sockets[0].events, sockets[1].events, strict=True):
        if mine != theirs:
            assert mine["kind"] == theirs["kind"] == "draw"
            drawer = mine if "cards" in mine else theirs
            other = theirs if drawer is mine else mine
            # The drawer's copy alone names the cards, and the table of a turn it begins.
            assert {**drawer, "cards": None, "table": None} == {**other, "cards": None,
                                                                "table": None}
            assert "cards" not in other and "table" not in other
            assert drawer["seat"] == (0 if drawer is mine else 1)
        elif mine["kind"] == "draw":
            assert "cards" not in mine  # a draw both may see names no card
    for seat in (0, 1):
        seen = set()
        for event in sockets[seat].events:
            if event["kind"] == "draw" and event["seat"] == seat:
                seen.update(event["cards"])
            elif event["kind"] in ("play", "discard"):
                seen.update([event["card"], event.get("payoff_top")])
            elif event["kind"] == "dealt":
                seen.update(event["payoff_tops"])
        # No card anywhere in the seat's messages beyond its own draws and the table: not the
        # other hand, not the stock's order, not a pay-off card under the top.
        assert set(cards_in(sockets[seat].messages)) <= seen
    for socket in sockets.values():
        socket.close()


def _without_presence(match: dict) -> dict:
    """The match, less whether each seat is connected (the socket that reads it changes it)."""
    return {**match, "seats": [{**seat, "connected": None} for seat in match["seats"]]}


def test_ready_brings_the_seats_whole_view_and_nothing_it_may_not_see(server, table):
    """lichess's ``gameFull``: ``ready`` carries the match as the seat's GET gives it, read with
    ``last`` (its ``event``), so a client plays from it without a read; it names no card the
    seat cannot see (counted by copy: two decks hold each card twice)."""
    match, tokens = table
    view = match_of(server, match.pk, tokens[0])
    for _ in range(3):  # some play first: discards, centre stacks, draws on both sides
        turn = view["game"]["turn"]
        play(server, match_of(server, match.pk, tokens[turn]), tokens[turn])
        view = match_of(server, match.pk, tokens[0])
    engine = engine_of(match.pk)
    # The seat to move holds cards (it drew at its turn's start, and an emptied hand draws
    # again), so one ``ready`` at least carries a hand. The other seat's may be empty on some
    # deals: a turn can end by discarding its last card.
    assert engine.turn is not None and engine.hand(engine.turn)
    for seat in (0, 1):
        socket = connect(server, match.pk, tokens[seat])
        ready = socket.ready
        socket.close()
        rest = match_of(server, match.pk, tokens[seat])
        assert ready["last"] == ready["match"]["event"] == rest["event"]
        assert _without_presence(ready["match"]) == _without_presence(rest)
        assert ready["match"]["you"] == seat
        # Its hand as the engine holds it (``assert_shows_only_what_seat_sees``), empty or not.
        assert_shows_only_what_seat_sees(ready["match"]["game"], engine, seat)
        # No card beyond the copies the seat sees itself: not the other hand, not the stock.
        # (``legal_actions`` names hand cards again, once per place they go)
        shown = {**ready, "match": {**ready["match"], "game": {
            key: value for key, value in ready["match"]["game"].items()
            if key != "legal_actions"}}}
        assert not Counter(cards_in(shown)) - visible(engine, seat)


def test_a_reconnect_with_after_catches_up_exactly(server, table):
    match, tokens = table
    first = connect(server, match.pk, tokens[0], after=0)
    first.through(first.ready["last"])
    held = first.cursor
    first.close()
    view = match_of(server, match.pk, tokens[0])
    for _ in range(6):  # both seats play on while Ada is away
        turn = view["game"]["turn"]
        view = match_of(server, match.pk, tokens[turn])
        play(server, view, tokens[turn])
        view = match_of(server, match.pk, tokens[0])
    latest = Match.objects.get(pk=match.pk).event
    assert latest > held

    again = connect(server, match.pk, tokens[0], after=held)
    assert {**again.ready, "match": None} == {"type": "ready", "seat": 0, "last": latest,
                                              "match": None}
    assert again.ready["match"]["event"] == latest
    again.through(latest)
    assert again.events == feed(server.base, match.pk, tokens[0], after=held)
    assert again.events[0]["number"] == held + 1
    assert again.quiet(0.3) == [] or all(m["type"] == "presence" for m in again.messages[-1:])
    again.close()
    # Without `after` a socket sends only what comes next; after the end, nothing.
    for after in (None, latest, 10**9):
        socket = connect(server, match.pk, tokens[0], after=after)
        assert socket.ready["last"] == latest
        assert [m for m in socket.quiet(0.5) if m["type"] == "events"] == []
        socket.close()


def test_events_stored_by_another_process_reach_the_socket(server, table, settings):
    """This test's own process plays the action (as a worker or another app server would) and
    publishes through Redis; the server's sockets check the feed only every 10 minutes here,
    so the event arrives by the notice."""
    from tests.asgi_server import TEST_REDIS_URL

    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [TEST_REDIS_URL], "prefix": f"{server.prefix}.live."}}}
    match, tokens = table
    sockets = {seat: connect(server, match.pk, tokens[seat]) for seat in (0, 1)}
    before = Match.objects.get(pk=match.pk).event
    seat = Match.objects.get(pk=match.pk).turn
    player = match.player0 if seat == 0 else match.player1
    for _ in range(3):
        with transaction.atomic():
            locked, game = services.match_lock(player=player, match_id=match.pk)
            action = greedy(match_of(server, match.pk, tokens[seat])["game"])
            services.action_play(match=locked, game=game, player=player, action=action,
                                 expected_game=None, expected_actions=None)
        latest = Match.objects.get(pk=match.pk).event
        for socket in sockets.values():
            socket.through(latest)
        if Match.objects.get(pk=match.pk).turn != seat:
            break
    for other in (0, 1):
        assert sockets[other].events == feed(server.base, match.pk, tokens[other], after=before)
        sockets[other].close()


def test_presence_follows_who_holds_a_socket(server, table):
    match, tokens = table
    ada = connect(server, match.pk, tokens[0])
    ada.until(lambda message: message["type"] == "presence")
    assert ada.presence == [True, False]
    bob = connect(server, match.pk, tokens[1])
    bob.until(lambda message: message["type"] == "presence")
    assert bob.presence == [True, True]
    ada.until(lambda message: message["type"] == "presence")
    assert ada.presence == [True, True]
    # A second socket of Bob's, then the first closing: Bob is still there.
    bob_again = connect(server, match.pk, tokens[1])
    bob.close()
    assert [m for m in ada.quiet(1) if m["type"] == "presence"] == []
    bob_again.close()
    ada.until(lambda message: message["type"] == "presence")
    assert ada.presence == [True, False]
    ada.send({"type": "ping"})
    assert ada.until(lambda message: message["type"] != "presence") == {"type": "pong"}
    ada.close()


def test_a_bot_match_shows_the_bots_seat_connected(server):
    _, token = players.player_create(name="Cy")
    status, match = call(server.base, "POST", "/api/v1/spite-malice/matches",
                         {"opponent": "bot", "level": "easy", "target": 1}, token=token)
    assert status == 201, match
    socket = connect(server, match["id"], token)
    socket.until(lambda message: message["type"] == "presence")
    assert socket.presence == [True, True]
    socket.close()


def test_a_browser_authenticates_with_its_first_message(server, table):
    match, tokens = table
    socket = Socket(server.ws(path(match.pk, 0), origin=server.base), after=0)
    socket.send({"type": "auth", "token": tokens[1]})
    socket.until(lambda message: message["type"] == "ready")
    assert socket.ready["seat"] == 1
    socket.through(socket.ready["last"])
    assert socket.events == feed(server.base, match.pk, tokens[1])
    socket.close()


@pytest.mark.parametrize("first", [
    {"type": "auth", "token": "not-a-token"},
    {"type": "ping"},
    {"type": "auth"},
])
def test_a_first_message_without_a_good_token_is_refused_4401(server, table, first):
    match, _ = table
    socket = Socket(server.ws(path(match.pk)))
    socket.send(first)
    assert socket.close_code() == 4401


def test_a_bad_bearer_header_is_refused_4401(server, table):
    match, _ = table
    assert Socket(server.ws(path(match.pk), token="not-a-token")).close_code() == 4401


def test_no_token_within_ten_seconds_is_refused_4401(server, table):
    match, _ = table
    socket = Socket(server.ws(path(match.pk)))
    assert socket.quiet(8) == []
    assert socket.close_code() == 4401


def test_a_player_not_of_the_match_or_an_unknown_match_is_refused_4403(server, table):
    match, _ = table
    _, stranger = players.player_create(name="Eve")
    assert Socket(server.ws(path(match.pk), token=stranger)).close_code() == 4403
    _, ada_token = table[0], table[1][0]
    assert Socket(server.ws(path(uuid.uuid4()), token=ada_token)).close_code() == 4403


@pytest.mark.parametrize("query", ["?after=-1", "?after=x", "?after=1&after=2",
                                   "?after=1000000001"])
def test_a_malformed_after_is_refused_4400(server, table, query):
    match, tokens = table
    socket = Socket(server.ws(path(match.pk) + query, token=tokens[0]))
    assert socket.close_code() == 4400


def test_a_message_that_is_not_json_is_refused_4400(server, table):
    match, tokens = table
    socket = connect(server, match.pk, tokens[0])
    socket.ws.send("{nope")
    assert socket.close_code() == 4400


def test_another_sites_page_cannot_open_a_socket(server, table):
    match, tokens = table
    with pytest.raises(InvalidStatus) as refused:
        server.ws(path(match.pk), token=tokens[0], origin="https://elsewhere.example")
    assert refused.value.response.status_code == 403


@pytest.mark.parametrize("where", ["/ws/spite-malice/matches/not-a-uuid", "/ws/elsewhere",
                                   "/api/v1/players"])
def test_a_socket_anywhere_else_is_refused(server, where):
    with pytest.raises(InvalidStatus) as refused:
        server.ws(where)
    assert refused.value.response.status_code == 403


def test_a_socket_whose_token_is_revoked_is_closed_4401(server, table):
    """Its server checks every second here (LIVE_TOKEN_CHECK_SECONDS; 30 by default)."""
    from server.players.models import AccessToken

    match, tokens = table
    socket = connect(server, match.pk, tokens[0])
    AccessToken.objects.filter(player=match.player0).delete()
    assert socket.close_code() == 4401
