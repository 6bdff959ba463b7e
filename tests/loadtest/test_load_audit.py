"""make load's Spite & Malice audit (loadtest/verify_sm.py) finds nothing in what a real
friend match told its players, and finds each kind of fault when one is slipped in: a hidden
card in an answer, another seat's draw named in an event, a socket event doubled, skipped or
unlike the feed, a card in another socket message, an action lost or stored without an
acknowledgement."""

from __future__ import annotations

import copy

import pytest

from loadtest import verify_sm
from server.spitemalice.models import Event
from server.spitemalice.selectors import events_of
from spitemalice import CARD_CODES
from tests.server.spitemalice.friend_support import pair, whose_turn
from tests.server.spitemalice.support import act, engine_of, greedy, url


@pytest.fixture
def played(make_player):
    """A friend match four turns in: (every answer each seat got, the acknowledgements)."""
    apis, views = pair(make_player, target=1)
    match_id = views[0]["id"]
    answers = [("read", views[0]), ("read", views[1])]
    acks = []
    for _ in range(4):
        seat = whose_turn(views)
        view = views[seat]
        while view["status"] == "playing" and view["game"]["turn"] == seat:
            game, action = view["game"], greedy(view["game"])
            response = act(apis[seat], view, action)
            assert response.status_code == 200, response.content
            view = response.json()
            acks.append((match_id, game["number"], game["actions"], seat, action[0], action[1],
                         view["event"], 0.0))
            answers.append(("action", view))
        views = {seat: view, 1 - seat: apis[1 - seat].get(url(view)).json()}
        answers.append(("read", views[1 - seat]))
    return match_id, answers, acks


def test_a_real_match_passes_every_check(played):
    match_id, answers, acks = played
    truth = verify_sm.Truth()

    mismatches, bot_seats = verify_sm.check_replays(truth)
    actions = verify_sm.check_actions(acks, bot_seats)
    answers_checked, answer_leaks = verify_sm.check_answers(answers, truth)
    events_checked, feed_leaks, _feed = verify_sm.check_feed(truth)

    assert mismatches == [] and answer_leaks == [] and feed_leaks == []
    assert actions["lost"] == [] and actions["unacknowledged"] == []
    assert actions["acked_twice"] == actions["stored_twice"] == 0
    # Four turns hold four actions at least: each ends with its discard.
    assert actions["actions_acknowledged"] == actions["actions_stored"] == len(acks) >= 4
    assert answers_checked == len(answers)
    assert events_checked == 2 * Event.objects.filter(match_id=match_id).count()


def test_a_hidden_card_in_an_answer_is_found(played):
    match_id, answers, _ = played
    _, answer = answers[-1]
    seat = answer["you"]
    assert answer["game"]["status"] == "playing" and answer["game"]["hand"], answer
    # Two decks hold every card twice, so the opponent's cards may well be ones this seat holds
    # or sees too: the card slipped in is one whose code appears nowhere in what the seat was
    # shown, the opponent's first such card if it holds one, else the first such of the deck.
    seen = set(verify_sm.cards_in(answer))
    theirs = [str(card) for card in engine_of(match_id).hand(1 - seat)]
    hidden = next(code for code in [*theirs, *CARD_CODES] if code not in seen)
    peeking = copy.deepcopy(answer)
    peeking["game"]["hand"][0] = hidden
    stray = copy.deepcopy(answer)
    stray["game"]["peek"] = hidden

    for shown in (peeking, stray):
        _, leaks = verify_sm.check_answers([("read", shown)], verify_sm.Truth())
        assert len(leaks) == 1, leaks


def test_another_seats_draw_named_in_an_event_is_found(played):
    match_id, _, _ = played
    draw = Event.objects.filter(match_id=match_id, kind="draw").order_by("number").first()
    drawer = draw.seat0["seat"]
    told = {0: draw.seat0, 1: draw.seat1}[drawer]
    other = f"seat{1 - drawer}"
    setattr(draw, other, {**getattr(draw, other), "cards": told["cards"]})
    draw.save(update_fields=[other])

    _, leaks, _ = verify_sm.check_feed(verify_sm.Truth())

    assert len(leaks) >= 1 and all(number == draw.number for _, number, _ in leaks), leaks


def test_socket_events_doubled_skipped_or_unlike_the_feed_are_found(played):
    from server.spitemalice.models import Match

    match_id, _, _ = played
    match = Match.objects.get(pk=match_id)
    events, _ = events_of(match, 0, 0)
    _, _, feed = verify_sm.check_feed(verify_sm.Truth())
    changed = {**events[4], "kind": "something else"}
    messages = [
        (match_id, 0, 1, 1.0, {"type": "events", "events": events[:3]}),
        (match_id, 0, 2, 2.0, {"type": "events", "events": [*events[2:3], changed]}),
        (match_id, 0, 2, 3.0, {"type": "events", "events": events[6:]}),
        (match_id, 0, 2, 4.0, {"type": "presence", "seats": [True, "QS"]}),
    ]  # events[2] twice; events[3] and events[5] never; a card where none belongs

    sockets = verify_sm.check_sockets(messages, feed, {})

    assert sockets["doubled"] == 1 and sockets["skipped"] == 2 and sockets["stray_cards"] == 1
    assert [number for _, _, number, _, _ in sockets["different"]] == [events[4]["number"]]


def test_a_ready_is_checked_as_the_seats_view_and_a_card_beside_it_is_found(played):
    """A socket's ``ready`` carries the seat's whole view, its own hand included: no stray
    card, but checked against the game as an answer is, so a hidden card in it is found."""
    match_id, answers, _ = played
    _, view = answers[-1]
    truth = verify_sm.Truth()
    _, _, feed = verify_sm.check_feed(truth)
    ready = {"type": "ready", "last": view["event"], "match": view}
    peeking = copy.deepcopy(view)
    theirs = [str(card) for card in engine_of(match_id).hand(1 - view["you"])]
    peeking["game"]["hand"][0] = next(
        code for code in [*theirs, *CARD_CODES] if code not in set(verify_sm.cards_in(view)))
    messages = [(match_id, view["you"], 1, 1.0, ready),
                (match_id, view["you"], 2, 2.0, {"type": "ready", "last": view["event"],
                                                 "match": peeking}),
                (match_id, view["you"], 2, 3.0, {**ready, "peek": view["game"]["hand"][0]})]

    sockets = verify_sm.check_sockets(messages, feed, {})

    assert sockets["stray_cards"] == 1  # the card beside the match, not the hand in it
    assert [match for _, match in sockets["readies"]] == [view, peeking, view]
    checked, leaks = verify_sm.check_answers(sockets["readies"], truth)
    assert checked == 3 and len(leaks) == 1, leaks


def test_a_lost_or_unacknowledged_action_is_found(played):
    _, _, acks = played
    _, bot_seats = verify_sm.check_replays(verify_sm.Truth())
    invented = (*acks[0][:2], 999, *acks[0][3:])

    actions = verify_sm.check_actions([*acks[1:], invented, acks[2]], bot_seats)

    assert actions["lost"] == [invented[:6]]
    assert actions["unacknowledged"] == [acks[0][:6]]
    assert actions["acked_twice"] == 1


def test_a_later_audit_reads_its_own_server_not_only_its_database_name():
    """`make drill` audits one server's drills on the machine's PostgreSQL, then the cluster's
    on its primary: a second audit in the process once kept the first one's port, and read a
    database of the cluster's name on the wrong server."""
    from loadtest.verify import point_at

    settings = {"ENGINE": "django.db.backends.postgresql", "NAME": "foursquare_load",
                "HOST": "127.0.0.1", "PORT": 5432, "USER": "postgres", "PASSWORD": ""}
    point_at(settings, "postgres://app:secret@127.0.0.1:5442/foursquare_cluster")
    assert (settings["NAME"], settings["HOST"], settings["PORT"], settings["USER"],
            settings["PASSWORD"]) == ("foursquare_cluster", "127.0.0.1", 5442, "app", "secret")
    assert settings["ENGINE"] == "django.db.backends.postgresql"
