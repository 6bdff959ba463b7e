"""Matches against the bot through the API: creation, the game view, actions, the bot's
reply, events, records, resigning and hidden information."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from server.jobs.background import job_run_next
from server.spitemalice import services
from server.spitemalice.engine import rebuild
from server.spitemalice.models import Action, Event, Match, MatchGame
from server.spitemalice.shapes import game_view
from spitemalice import Game, PlayerView, player_view
from tests.server.conftest import assert_problem
from tests.server.spitemalice.support import (
    act,
    cards_in,
    engine_of,
    greedy,
    play_out,
    start,
    url,
)

pytestmark = pytest.mark.sqlite


def visible(engine: Game, seat: int) -> Counter:
    """Every card ``seat`` may see, once per copy on the table."""
    view: PlayerView = player_view(engine, seat, since=len(engine.actions))
    shown = list(view["hand"]) + [top for top in view["payoff_top"] if top]
    for stacks in view["sides"]:
        for stack in stacks:
            shown += stack
    for stack in view["centre"]:
        shown += stack
    return Counter(shown)


def assert_shows_only_what_seat_sees(game: dict, engine: Game, seat: int) -> None:
    shown = {key: value for key, value in game.items() if key != "legal_actions"}
    assert not Counter(cards_in(shown)) - visible(engine, seat)  # nothing the seat can't see
    assert game["hand"] == [str(card) for card in engine.hand(seat)]
    assert all(action[0] in ("P", "S0", "S1", "S2", "S3") or action[0] in game["hand"]
               for action in game["legal_actions"])


def test_a_match_against_the_bot_is_created_dealt_and_shaped(player_api):
    response = player_api.post("spite-malice/matches",
                               {"opponent": "bot", "level": "normal", "target": 25})

    assert response.status_code == 201
    match = response.json()
    assert response["Location"].endswith(f"/api/v1/spite-malice/matches/{match['id']}")
    assert match["mode"] == "bot" and match["level"] == "normal" and match["target"] == 25
    assert match["status"] == "playing" and match["you"] == 0 and match["winner"] is None
    assert [seat["bot"] for seat in match["seats"]] == [None, "normal"]
    assert match["seats"][0]["player"]["id"] and match["seats"][1]["player"] is None
    game = match["game"]
    assert game["number"] == 1 and game["turn"] == 0  # the bot's first turn, if it started
    assert len(game["hand"]) == 5 and game["legal_actions"]
    assert [stack["next"] for stack in game["centre"]] == ["A", "A", "A"] or game["actions"]
    assert sum(seat["payoff"] for seat in game["seats"]) <= 40
    assert match["event"] == Event.objects.filter(match_id=match["id"]).count()


def test_the_default_target_is_the_rules_match(player_api):
    response = player_api.post("spite-malice/matches", {"opponent": "bot", "level": "easy"})
    assert response.status_code == 201 and response.json()["target"] == 50


@pytest.mark.parametrize("body", [
    {}, {"opponent": "bot"}, {"opponent": "bot", "level": "master"},
    {"opponent": "bot", "level": "easy", "target": 10},
    {"opponent": "bot", "level": "easy", "target": "50"},
    {"opponent": "bot", "level": "easy", "target": True},
    {"opponent": "person", "level": "easy"}, {"opponent": "bot", "level": "easy", "x": 1},
    {"mode": "practice"}, {"mode": "daily", "date": "2026-1-5"}, [],
])
def test_a_malformed_match_request_is_invalid_and_creates_nothing(player_api, body):
    assert_problem(player_api.post("spite-malice/matches", body), 400, "invalid")
    assert Match.objects.count() == 0


def test_a_match_that_is_not_yours_is_not_found(make_player):
    _, mine = make_player()
    _, theirs = make_player()
    match = start(mine)
    for path in ("", "/events", "/hint", "/games/1/record"):
        assert_problem(theirs.get(url(match, path)), 404, "not_found")
    assert_problem(act(theirs, match, match["game"]["legal_actions"][0]), 404, "not_found")
    assert_problem(theirs.post(url(match, "/resign")), 404, "not_found")


def test_the_bots_reply_turn_comes_in_the_same_response(player_api):
    match = start(player_api, level="normal", target=50)
    game = match["game"]
    discard = next(action for action in game["legal_actions"] if action[1].startswith("S"))
    response = act(player_api, match, discard)

    assert response.status_code == 200
    after = response.json()
    rows = list(Action.objects.filter(match_id=match["id"]).order_by("number"))
    seats = [row.seat for row in rows[game["actions"]:]]
    assert seats[0] == 0 and seats[1:] and set(seats[1:]) == {1}  # the bot played its turn
    assert after["game"]["turn"] == 0 and after["game"]["actions"] == len(rows)


def test_a_full_game_shows_each_seat_only_what_it_may_see(player_api):
    match = start(player_api, level="easy", target=1)
    seeds = [Match.objects.get(pk=match["id"]).seed,
             MatchGame.objects.get(match_id=match["id"], number=1).seed]

    def check(answer: dict) -> None:
        text = json.dumps(answer)
        assert not any(seed in text for seed in seeds)
        engine = engine_of(answer["id"], answer["game"]["number"])
        assert_shows_only_what_seat_sees(answer["game"], engine, 0)
        # The bot's seat, as the same code would show it.
        row = MatchGame.objects.get(match_id=answer["id"], number=answer["game"]["number"])
        assert_shows_only_what_seat_sees(game_view(row, engine, 1), engine, 1)

    check(match)
    play_out(player_api, match, on_response=lambda answer: check(answer)
             if answer["status"] == "playing" else None)


def test_the_event_feed_names_your_draws_and_only_the_count_of_the_bots(player_api):
    match = play_out(player_api, start(player_api, level="easy", target=1))
    feed = player_api.get(url(match, "/events")).json()
    events = feed["events"]
    assert [event["number"] for event in events] == list(range(1, match["event"] + 1))
    assert feed["last"] == match["event"] and feed["more"] is False
    assert events[0]["kind"] == "dealt" and events[-1]["kind"] == "match_over"

    hand: Counter = Counter()
    for event in events:
        if event["kind"] == "play":  # the rank the card counts as: its own, or a King's
            assert event["as"] in "A23456789TJQ" and event["to"] in ("C0", "C1", "C2")
            assert event["card"][0] in ("K", event["as"])
        if event["kind"] == "draw":
            assert ("cards" in event) == (event["seat"] == 0)
            if event["seat"] == 0:
                assert len(event["cards"]) == event["count"]
                hand.update(event["cards"])
        elif event["kind"] in ("play", "discard") and event["seat"] == 0 \
                and event["from"] == event["card"]:
            hand[event["card"]] -= 1
    assert +hand == Counter(str(card) for card in engine_of(match["id"], 1).hand(0))

    # Stored for the bot's seat, the person's draws are counts only.
    for seen in Event.objects.filter(match_id=match["id"], kind="draw").values_list("seat1",
                                                                                    flat=True):
        assert ("cards" in seen) == (seen["seat"] == 1)

    later = player_api.get(url(match, "/events"), {"after": events[-3]["number"]}).json()
    assert later["events"] == events[-2:] and later["last"] == feed["last"]
    none = player_api.get(url(match, "/events"), {"after": 10**6}).json()
    assert none == {"events": [], "last": match["event"], "more": False}


def test_the_event_feed_says_whether_more_events_follow_a_page(player_api, monkeypatch):
    from server.spitemalice import selectors

    match = play_out(player_api, start(player_api, level="easy", target=1))
    whole = player_api.get(url(match, "/events")).json()["events"]
    assert len(whole) == match["event"] > 7
    monkeypatch.setattr(selectors, "EVENTS_PER_PAGE", 3)
    pages, after = [], 0
    while True:
        page = player_api.get(url(match, "/events"), {"after": after}).json()
        pages.append(page)
        if not page["more"]:
            break
        after = page["last"]
    assert [event for page in pages for event in page["events"]] == whole
    assert [len(page["events"]) for page in pages[:-1]] == [3] * (len(pages) - 1)
    assert pages[-1]["last"] == match["event"] and 0 < len(pages[-1]["events"]) <= 3
    # A page that ends exactly at the latest event is full, and nothing follows it.
    full = player_api.get(url(match, "/events"), {"after": match["event"] - 3}).json()
    assert len(full["events"]) == 3 and full["more"] is False
    assert player_api.get(url(match, "/events"),
                          {"after": match["event"] - 4}).json()["more"] is True


@pytest.mark.parametrize("after", ["-1", "x", "01", ""])
def test_events_after_a_bad_number_are_invalid(player_api, after):
    match = start(player_api)
    assert_problem(player_api.get(url(match, "/events"), {"after": after}), 400, "invalid")


def test_stored_actions_rebuild_every_game_as_stored(player_api):
    match = play_out(player_api, start(player_api, level="hard", target=1))
    stored = Match.objects.get(pk=match["id"])
    for game in MatchGame.objects.filter(match=stored):
        rows = Action.objects.filter(match=stored, game=game.number).order_by("number")
        replayed = Game(bytes.fromhex(game.seed))
        for row in rows:
            result = replayed.play([row.source, row.target])
            assert (str(result.card), result.player) == (row.card, row.seat)
        assert [list(action) for action in replayed.actions] == game.actions
        assert (replayed.status, replayed.winner, replayed.points) == (
            game.status, game.winner, game.points)
    assert stored.scores == [match["seats"][0]["score"], match["seats"][1]["score"]]
    assert stored.status == "finished" and stored.event == Event.objects.filter(
        match=stored).count()


PROBLEM_MEMBERS = {"type", "title", "status", "detail", "code"}


def test_an_illegal_action_is_refused_with_the_engines_message_and_changes_nothing(
        player_api):
    match = start(player_api)
    before = (Event.objects.count(), Action.objects.count())
    body = assert_problem(act(player_api, match, ["P", "S0"]), 422, "illegal_action")
    assert "P" in body["detail"]
    missing = next(code for code in ("KS", "KH", "QS", "QH")
                   if code not in match["game"]["hand"])
    assert_problem(act(player_api, match, [missing, "C0"]), 422, "illegal_action")
    assert (Event.objects.count(), Action.objects.count()) == before
    assert player_api.get(url(match)).json() == match


def test_an_illegal_action_lists_the_actions_legal_now_as_the_match_does(player_api):
    match = start(player_api)
    legal = match["game"]["legal_actions"]
    assert legal  # the person's turn: the bot's opening turn, if any, is played already
    body = assert_problem(act(player_api, match, ["P", "S0"]), 422, "illegal_action")
    assert set(body) == PROBLEM_MEMBERS | {"legal_actions"}
    assert body["legal_actions"] == legal
    # Only your own cards: every source is a pile or a card of your hand.
    assert all(source in ("P", "S0", "S1", "S2", "S3") or source in match["game"]["hand"]
               for source, _ in body["legal_actions"])
    # Parts the engine cannot parse as an action are answered the same way.
    body = assert_problem(act(player_api, match, ["C0", "C1"]), 422, "illegal_action")
    assert body["legal_actions"] == legal


@pytest.mark.parametrize("action", [["P"], ["P", "C0", "C1"], ["p", "C0"], ["P", "C3"],
                                    ["P", "S4"], [1, "C0"], "P>C0", None, ["ZZ", "C0"], []])
def test_a_malformed_action_is_invalid(player_api, action):
    match = start(player_api)
    assert_problem(player_api.post(url(match, "/actions"), {"action": action}), 400, "invalid")


@pytest.mark.parametrize("action", [["C0", "C1"], ["P", "P"], ["S0", "S1"], ["7H", "7H"]])
def test_parts_that_make_no_action_are_refused_by_the_engine(player_api, action):
    match = start(player_api)
    body = assert_problem(player_api.post(url(match, "/actions"), {"action": action}), 422,
                          "illegal_action")
    assert action[0] in body["detail"]


@pytest.mark.parametrize("extra", [{"game": "1"}, {"actions": -1}, {"actions": 1.0},
                                   {"move": 1}])
def test_a_malformed_concurrency_check_is_invalid(player_api, extra):
    match = start(player_api)
    body = {"action": match["game"]["legal_actions"][0], **extra}
    assert_problem(player_api.post(url(match, "/actions"), body), 400, "invalid")


def test_a_stale_action_is_refused(player_api):
    match = start(player_api)
    game = match["game"]
    action = game["legal_actions"][0]
    assert_problem(act(player_api, match, action, actions=game["actions"] + 1), 409,
                   "stale_action")
    assert_problem(act(player_api, match, action, game=2), 409, "stale_action")
    assert act(player_api, match, action).status_code == 200
    assert_problem(act(player_api, match, action), 409, "stale_action")  # the same, resent


def test_a_stale_action_says_where_the_match_stands(player_api):
    match = start(player_api, target=50)
    now = act(player_api, match, match["game"]["legal_actions"][0]).json()
    action = now["game"]["legal_actions"][0]
    for stale in ({"actions": now["game"]["actions"] + 1},
                  {"game": now["game"]["number"] + 1}):
        body = assert_problem(act(player_api, now, action, **stale), 409, "stale_action")
        assert set(body) == PROBLEM_MEMBERS | {"game", "actions"}
        assert (body["game"], body["actions"]) == (now["game"]["number"],
                                                   now["game"]["actions"])
    # Sent back as they came, they are current: the answer is a match, not a conflict.
    answer = player_api.post(url(now, "/actions"), {"action": action, "game": body["game"],
                                                    "actions": body["actions"]})
    assert answer.status_code == 200, answer.content


def test_acting_out_of_turn_is_refused_and_the_bot_finishes_in_the_background(
        player_api, settings):
    settings.SPITE_MALICE_BOT_SECONDS = 0  # every bot turn goes to the background
    match = start(player_api, level="easy", target=50)
    while match["game"]["turn"] != 0:  # the bot started: let its job play
        job_run_next()
        match = player_api.get(url(match)).json()
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    after = act(player_api, match, discard).json()
    assert after["game"]["turn"] == 1 and Match.objects.get(pk=match["id"]).bot_pending

    body = {"action": ["P", "C0"]}
    refused = assert_problem(player_api.post(url(match, "/actions"), body), 409,
                             "not_your_turn")
    assert set(refused) == PROBLEM_MEMBERS | {"turn", "game", "actions"}
    assert (refused["turn"], refused["game"], refused["actions"]) == (
        1, after["game"]["number"], after["game"]["actions"])
    hint = assert_problem(player_api.get(url(match, "/hint")), 409, "not_your_turn")
    assert {key: hint[key] for key in ("turn", "game", "actions")} == {
        key: refused[key] for key in ("turn", "game", "actions")}

    seen = after["event"]
    assert job_run_next() is not None
    now = player_api.get(url(match)).json()
    assert now["game"]["turn"] == 0 and now["event"] > seen
    new = player_api.get(url(match, "/events"), {"after": seen}).json()["events"]
    assert {event["seat"] for event in new if event["kind"] in ("play", "discard")} == {1}

    # The next long turn gets a job of its own, though the last one is done.
    discard = next(a for a in now["game"]["legal_actions"] if a[1].startswith("S"))
    assert act(player_api, now, discard).json()["game"]["turn"] == 1
    assert job_run_next() is not None
    assert player_api.get(url(match)).json()["game"]["turn"] == 0


def test_idempotent_retries_apply_once(player_api):
    match = start(player_api)
    action = match["game"]["legal_actions"][0]
    first = act(player_api, match, action, HTTP_IDEMPOTENCY_KEY="sm-1")
    again = act(player_api, match, action, HTTP_IDEMPOTENCY_KEY="sm-1")
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    assert Action.objects.filter(match_id=match["id"], seat=0).count() == 1
    other = act(player_api, match, match["game"]["legal_actions"][-1],
                HTTP_IDEMPOTENCY_KEY="sm-1")
    assert_problem(other, 422, "idempotency_key_reused")


def test_an_action_takes_a_bounded_number_of_queries(player_api, django_assert_max_num_queries):
    match = start(player_api, level="easy", target=50)
    with django_assert_max_num_queries(12):
        response = act(player_api, match, match["game"]["legal_actions"][0],
                       HTTP_IDEMPOTENCY_KEY="q-1")
    assert response.status_code == 200
    match = response.json()
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    with django_assert_max_num_queries(12):  # with the bot's whole reply turn
        assert act(player_api, match, discard).status_code == 200


def test_resigning_ends_the_match_for_the_other_seat(player_api):
    match = start(player_api, target=50)
    response = player_api.post(url(match, "/resign"))
    assert response.status_code == 200
    over = response.json()
    assert over["status"] == "finished" and over["winner"] == 1
    assert over["reason"] == "resigned" and over["game"]["status"] == "resigned"
    assert over["game"]["legal_actions"] == [] and over["game"]["turn"] is None
    kinds = [e["kind"] for e in player_api.get(url(match, "/events")).json()["events"][-3:]]
    assert kinds == ["resigned", "game_over", "match_over"]
    assert_problem(player_api.post(url(match, "/resign")), 409, "game_over")
    assert_problem(act(player_api, match, match["game"]["legal_actions"][0]), 409, "game_over")
    assert_problem(player_api.get(url(match, "/hint")), 409, "game_over")
    assert player_api.get(url(match, "/games/1/record")).status_code == 200


def test_resign_takes_no_body(player_api):
    match = start(player_api)
    body = assert_problem(player_api.post(url(match, "/resign"), {"x": 1}), 400, "invalid")
    assert body["errors"] == [{"field": "body", "message": "Takes no request body; send none."}]
    assert Match.objects.get(pk=match["id"]).status == "playing"


def test_a_record_is_revealed_once_the_game_is_over(player_api):
    match = start(player_api, target=1)
    assert_problem(player_api.get(url(match, "/games/1/record")), 409, "game_in_progress")
    assert_problem(player_api.get(url(match, "/games/2/record")), 404, "not_found")
    match = play_out(player_api, match)
    record = player_api.get(url(match, "/games/1/record")).json()
    assert set(record) == {"seed", "actions", "status", "winner", "points", "deal", "steps",
                           "final", "fairness"}
    replayed = Game(bytes.fromhex(record["seed"]))
    for action in record["actions"]:
        replayed.play(action)
    assert (replayed.status, replayed.winner, replayed.points) == (
        record["status"], record["winner"], record["points"])


def test_a_hint_is_a_legal_action_of_the_hard_bot(player_api):
    match = start(player_api, level="easy", target=50)
    response = player_api.get(url(match, "/hint"))
    assert response.status_code == 200
    assert response.json()["action"] in match["game"]["legal_actions"]


def test_hints_are_rate_limited(player_api, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "hints.token": "2/min"}
    match = start(player_api)
    assert player_api.get(url(match, "/hint")).status_code == 200
    assert player_api.get(url(match, "/hint")).status_code == 200
    assert_problem(player_api.get(url(match, "/hint")), 429, "throttled")


def test_your_matches_list_those_waiting_for_you_first(player_api, settings,
                                                        django_assert_max_num_queries):
    finished = play_out(player_api, start(player_api))
    settings.SPITE_MALICE_BOT_SECONDS = 0
    waiting = start(player_api, target=50)
    while waiting["game"]["turn"] != 0:
        job_run_next()
        waiting = player_api.get(url(waiting)).json()
    discard = next(a for a in waiting["game"]["legal_actions"] if a[1].startswith("S"))
    bots_turn = act(player_api, waiting, discard).json()
    yours = start(player_api, target=50)
    while yours["game"]["turn"] != 0:
        job_run_next()
        yours = player_api.get(url(yours)).json()

    page = player_api.get("spite-malice/matches", {"limit": 2}).json()
    # A page's games are read in one query; one more asks which matches' clocks ran out.
    with django_assert_max_num_queries(9):
        player_api.get("spite-malice/matches", {"limit": 100})
    assert page["count"] == 3 and page["previous"] is None
    assert [m["id"] for m in page["results"]] == [yours["id"], bots_turn["id"]]
    assert "cursor=n" in page["next"] and "offset" not in page["next"]
    rest = player_api.get(page["next"]).json()
    assert [m["id"] for m in rest["results"]] == [finished["id"]] and rest["next"] is None
    assert rest["count"] == 3
    back = player_api.get(rest["previous"]).json()
    assert [m["id"] for m in back["results"]] == [yours["id"], bots_turn["id"]]
    assert back["previous"] is None and back["next"] == page["next"]
    assert_problem(player_api.get("spite-malice/matches", {"limit": 0}), 400, "invalid")


def _finished_matches(player_api, count: int) -> list[str]:
    """``count`` resigned matches against the bot, the first changed longest ago (a minute
    apart, by their stored time): the ids in the list's order, the latest first."""
    from datetime import timedelta

    from django.utils import timezone

    base = timezone.now() - timedelta(hours=1)
    ids = []
    for index in range(count):
        match = start(player_api, target=50)
        assert player_api.post(url(match, "/resign")).status_code == 200
        Match.objects.filter(pk=match["id"]).update(updated_at=base + timedelta(minutes=index))
        ids.append(match["id"])
    return ids[::-1]


def _ids(page: dict) -> list[str]:
    return [match["id"] for match in page["results"]]


def test_your_matches_page_by_cursor_so_a_change_does_not_shift_the_pages(player_api):
    from datetime import timedelta

    from django.utils import timezone

    m4, m3, m2, m1, m0 = _finished_matches(player_api, 5)
    first = player_api.get("spite-malice/matches", {"limit": 2}).json()
    assert _ids(first) == [m4, m3] and first["previous"] is None
    # m1 changes while the client reads the first page: it moves to the top. An offset of
    # 2 would now repeat m3; the cursor continues after m3.
    Match.objects.filter(pk=m1).update(updated_at=timezone.now() + timedelta(minutes=1))
    assert _ids(player_api.get("spite-malice/matches", {"limit": 2, "offset": 2}).json()) == [
        m3, m2]
    second = player_api.get(first["next"]).json()
    assert _ids(second) == [m2, m0] and second["next"] is None and second["count"] == 5
    # Back from there: the two matches before m2 in the order as it is now.
    back = player_api.get(second["previous"]).json()
    assert _ids(back) == [m4, m3]
    top = player_api.get(back["previous"]).json()
    assert _ids(top) == [m1] and top["previous"] is None and "cursor=n0." in top["next"]


def test_your_matches_take_an_offset_still_and_their_links_carry_cursors(player_api):
    m2, m1, m0 = _finished_matches(player_api, 3)
    page = player_api.get("spite-malice/matches", {"limit": 1, "offset": 1}).json()
    assert _ids(page) == [m1] and page["count"] == 3
    assert "offset" not in page["next"] and "offset" not in page["previous"]
    assert _ids(player_api.get(page["next"]).json()) == [m0]
    assert _ids(player_api.get(page["previous"]).json()) == [m2]
    # With a cursor, an offset is ignored (as a board's around=me is).
    cursor = page["next"].split("cursor=")[1].split("&")[0]
    both = player_api.get("spite-malice/matches", {"limit": 1, "cursor": cursor, "offset": 2})
    assert _ids(both.json()) == [m0]


_ID = "0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize("cursor", [
    "x", "", "20", f"n2.1.{_ID}", f"n0.01.{_ID}", f"n0.1.{_ID.upper()}", "n0.1.0123",
    f"q0.1.{_ID}", f"n0.1.{_ID}\n", f"n0.12345678901234567.{_ID}", f"n0.-1.{_ID}",
])
def test_a_match_list_cursor_not_of_its_form_is_invalid(player_api, cursor):
    body = assert_problem(player_api.get("spite-malice/matches", {"cursor": cursor}), 400,
                          "invalid")
    assert [error["field"] for error in body["errors"]] == ["cursor"]


def test_every_match_list_cursor_of_its_form_is_a_place(player_api):
    m1, m0 = _finished_matches(player_api, 2)
    for cursor in ("n1.0.00000000000000000000000000000000",
                   "n0.9999999999999999.ffffffffffffffffffffffffffffffff"):
        page = player_api.get("spite-malice/matches", {"cursor": cursor}).json()
        assert _ids(page) == [m1, m0] and page["next"] is None
    page = player_api.get("spite-malice/matches",
                          {"cursor": "p0.0.00000000000000000000000000000000"}).json()
    assert _ids(page) == [m1, m0] and page["previous"] is None
    empty = player_api.get("spite-malice/matches",
                           {"cursor": "n0.0.00000000000000000000000000000000"}).json()
    assert empty["results"] == [] and empty["next"] is None and empty["count"] == 2


def test_services_replay_what_they_stored(player_api):
    """The locked match and its game, rebuilt, answer as the API did."""
    match = start(player_api)
    _stored, game = services.match_lock(player=Match.objects.get(pk=match["id"]).player0,
                                       match_id=match["id"])
    assert game_view(game, rebuild(game), 0) == match["game"]


def test_two_people_each_see_only_their_own_seat_over_a_full_game(make_player):
    ada, ada_api = make_player("Ada")
    bob, bob_api = make_player("Bob")
    match = services.match_start_friend(player=ada, opponent=bob, target=1)
    apis = {0: ada_api, 1: bob_api}
    views = {seat: apis[seat].get(f"spite-malice/matches/{match.pk}").json() for seat in (0, 1)}
    assert [views[seat]["you"] for seat in (0, 1)] == [0, 1]
    assert views[0]["mode"] == "friend" and views[0]["seats"][1]["bot"] is None
    for seat in (0, 1):
        assert_problem(apis[seat].get(url(views[seat], "/hint")), 403, "hints_not_allowed")

    for step in range(5000):
        current = views[0]
        if current["status"] == "finished":
            break
        turn = current["game"]["turn"]
        waiting = 1 - turn
        assert views[waiting]["game"]["legal_actions"] == []
        if step < 10:
            assert_problem(act(apis[waiting], views[waiting], ["P", "C0"]), 409,
                           "not_your_turn")
        response = act(apis[turn], views[turn], greedy(views[turn]["game"]))
        assert response.status_code == 200, response.content
        views = {turn: response.json(),
                 waiting: apis[waiting].get(f"spite-malice/matches/{match.pk}").json()}
        engine = engine_of(match.pk)
        for seat in (0, 1):
            if views[seat]["status"] == "playing":
                assert_shows_only_what_seat_sees(views[seat]["game"], engine, seat)
    assert views[0]["status"] == views[1]["status"] == "finished"

    for seat in (0, 1):
        events = apis[seat].get(url(views[seat], "/events")).json()["events"]
        for event in events:
            if event["kind"] == "draw":
                assert ("cards" in event) == (event["seat"] == seat)
