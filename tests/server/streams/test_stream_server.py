"""The account stream through the real server (gunicorn's uvicorn workers, Redis): many
matches at once (five between people, three against the bot, whose replies are all left to
the background), every match-started, your-turn and invitation event delivered in order over
the socket, over NDJSON and over Server-Sent Events, resumed after a disconnect with ``after``
and ``Last-Event-ID``, none missed or doubled, nobody else's; each new connection opens with
the snapshot of the matches being played."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import httpx
import pytest
import redis

from server.players import services as players
from server.streams.models import AccountEvent
from tests.asgi_server import TEST_REDIS_URL
from tests.server.live import live_server
from tests.server.spitemalice.support import greedy
from tests.serving import WAIT_SECONDS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]
MATCHES = "/api/v1/spite-malice/matches"


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """Streams read the table only every 10 minutes here: what reaches them came with the
    channel layer's notice. Every bot turn goes to the background (the server's job runner)."""
    with live_server(tmp_path_factory, needs="the stream tests",
                     env={"FOURSQUARE_STREAM_POLL_SECONDS": "600",
                          "FOURSQUARE_STREAM_KEEPALIVE_SECONDS": "1",
                          "SPITE_MALICE_BOT_SECONDS": "0"}) as running:
        yield running


class Http:
    """One player's JSON client of the real server."""

    def __init__(self, server, token: str) -> None:
        self.token = token
        self.client = httpx.Client(base_url=server.base, timeout=WAIT_SECONDS,
                                   headers={"Authorization": f"Bearer {token}"})

    def get(self, path: str, params=None) -> httpx.Response:
        return self.client.get(path, params=params)

    def post(self, path: str, body=None) -> httpx.Response:
        return self.client.post(path, json=body)


class Reader:
    """A stream read in a thread: NDJSON lines, or SSE messages; ``events`` in the order they
    came, ``blank`` the keep-alives."""

    def __init__(self, server, token: str, *, sse: bool = False, params=None,
                 headers=None) -> None:
        self.events: list[dict] = []
        self.snapshot: list[dict] = []  # the unnumbered match_started entries it opened with
        self.ids: list[int] = []
        self.blank = 0
        self.error: Exception | None = None  # how the stream broke, if it did not end cleanly
        self.status: int | None = None
        self.content_type = ""
        self.ended = threading.Event()
        self.client = httpx.Client(base_url=server.base, timeout=httpx.Timeout(
            WAIT_SECONDS, read=60))
        headers = {"Authorization": f"Bearer {token}", **(headers or {})}
        if sse:
            headers["Accept"] = "text/event-stream"
        self.request = self.client.build_request("GET", "/api/v1/stream", params=params,
                                                 headers=headers)
        self.sse = sse
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            response = self.client.send(self.request, stream=True)
            self.response = response
            self.status, self.content_type = (response.status_code,
                                              response.headers.get("content-type", ""))
            if response.status_code != 200:  # a refusal's body is a problem, not events
                response.read()
                return
            message: dict = {}
            for line in response.iter_lines():
                if not self.sse:
                    if line == "":
                        self.blank += 1
                    else:
                        self.take(json.loads(line))
                    continue
                if line.startswith(":"):
                    self.blank += 1
                elif line == "":
                    if "data" in message:
                        event = json.loads(message["data"])
                        assert (int(message["id"]) if "id" in message else None) == (
                            event["number"])
                        assert message["event"] == event["kind"]
                        self.take(event)
                    message = {}
                else:
                    name, _, value = line.partition(": ")
                    message[name] = value
        except (httpx.HTTPError, RuntimeError, AttributeError) as error:
            self.error = error
        finally:
            self.ended.set()

    def take(self, event: dict) -> None:
        if event["number"] is None:  # the snapshot comes before every numbered event
            assert event["kind"] == "match_started" and not self.events, event
            self.snapshot.append(event)
        else:
            self.events.append(event)

    def through(self, number: int, timeout: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while not (self.events and self.events[-1]["number"] >= number):
            assert time.monotonic() < deadline, (number, [e["number"] for e in self.events])
            time.sleep(0.05)

    def close(self) -> None:
        self.client.close()
        self.ended.wait(5)


class Socket:
    def __init__(self, server, token: str, after: int | None = None) -> None:
        path = "/ws/account" + (f"?after={after}" if after is not None else "")
        self.ws = server.ws(path, token=token)
        self.events: list[dict] = []
        self.ready = json.loads(self.ws.recv(timeout=WAIT_SECONDS))
        assert self.ready["type"] == "ready"
        self.snapshot = self.ready["matches"]
        self.cursor = self.ready["last"] if after is None else after

    def through(self, number: int, timeout: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while self.cursor < number:
            message = json.loads(self.ws.recv(timeout=max(0.01,
                                                          deadline - time.monotonic())))
            assert message["type"] == "events", message
            numbers = [event["number"] for event in message["events"]]
            assert numbers == list(range(self.cursor + 1, self.cursor + 1 + len(numbers)))
            self.cursor = message["last"]
            self.events += message["events"]


def stored(player) -> list[dict]:
    return list(AccountEvent.objects.filter(player=player).order_by("number")
                .values("number", "kind", "payload"))


def same(delivered: list[dict], rows: list[dict]) -> None:
    """Exactly the stored events, in order, once each."""
    assert [e["number"] for e in delivered] == [row["number"] for row in rows]
    for event, row in zip(delivered, rows, strict=True):
        assert event["kind"] == row["kind"]
        assert {key: event[key] for key in row["payload"]} == row["payload"]


def wait_for(predicate, timeout: float = WAIT_SECONDS):
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return value


def held_for(server, match_id, seat: int) -> bool:
    """Whether a request of the server listens for the match's notices to ``seat``: its
    channel layer subscribed to the seat's group (channels_redis' Pub/Sub channel name)."""
    from server.spitemalice.live.publish import group_of

    channel = f"{server.prefix}.live.__group__{group_of(match_id, seat)}"
    with redis.Redis.from_url(TEST_REDIS_URL) as client:
        return client.pubsub_numsub(channel)[0][1] > 0


def play_turn(api: Http, match: dict) -> dict:
    """The seat to play (``api``'s) plays greedily until its turn ends."""
    seat = match["you"]
    while match["status"] == "playing" and match["game"]["turn"] == seat:
        game = match["game"]
        response = api.post(f"{MATCHES}/{match['id']}/actions",
                            {"action": greedy(game), "game": game["number"],
                             "actions": game["actions"]})
        assert response.status_code == 200, response.text
        match = response.json()
    return match


def test_many_matches_reach_every_stream_in_order_and_resume(server):
    ada, ada_token = players.player_create(name="Ada")
    bob, bob_token = players.player_create(name="Bob")
    _eve, eve_token = players.player_create(name="Eve")
    apis = {"ada": Http(server, ada_token), "bob": Http(server, bob_token)}
    league = apis["ada"].post("/api/v1/leagues", {"name": "Card table"}).json()
    assert apis["bob"].post("/api/v1/leagues/join", {"code": league["code"]}).status_code == 200

    ada_socket = Socket(server, ada_token)
    ada_lines = Reader(server, ada_token)
    bob_sse = Reader(server, bob_token, sse=True)
    eve_lines = Reader(server, eve_token)
    wait_for(lambda: ada_lines.status and bob_sse.status and eve_lines.status)
    assert ada_lines.content_type.startswith("application/x-ndjson")
    assert bob_sse.content_type.startswith("text/event-stream")

    friends = []
    for _ in range(5):
        response = apis["ada"].post(MATCHES, {"opponent": "friend", "invitee": str(bob.pk),
                                              "target": 50})
        assert response.status_code == 201, response.text
        friends.append(response.json())
    bots = []
    for _ in range(3):
        response = apis["ada"].post(MATCHES, {"opponent": "bot", "level": "easy",
                                              "target": 50})
        assert response.status_code == 201, response.text
        bots.append(response.json())
    bob_sse.through(5)
    assert [e["kind"] for e in bob_sse.events] == ["invitation_received"] * 5
    for match in friends:
        assert apis["bob"].post(f"{MATCHES}/join",
                                {"code": match["invite"]["code"]}).status_code == 200

    def turns(rounds: int) -> None:
        for _ in range(rounds):
            for match in friends:
                for name in ("ada", "bob"):
                    view = apis[name].get(f"{MATCHES}/{match['id']}").json()
                    if view["game"]["turn"] == view["you"]:
                        play_turn(apis[name], view)
            for match in bots:
                view = wait_for(lambda m=match: (lambda v: v if v["game"]["turn"] == 0
                                                 else None)(
                    apis["ada"].get(f"{MATCHES}/{m['id']}").json()))
                play_turn(apis["ada"], view)

    def settled() -> None:
        """Every bot's reply, from the background, is in: Ada is to play in each."""
        for match in bots:
            wait_for(lambda m=match: apis["ada"].get(
                f"{MATCHES}/{m['id']}").json()["game"]["turn"] == 0)

    turns(2)
    settled()
    rows = stored(ada)
    ada_socket.through(rows[-1]["number"])
    ada_lines.through(rows[-1]["number"])
    same(ada_socket.events, rows)
    same(ada_lines.events, rows)
    kinds = {row["kind"] for row in rows}
    assert kinds == {"match_started", "joined", "your_turn"}
    every = {match["id"] for match in friends + bots}
    assert sorted(row["payload"]["match"] for row in rows
                  if row["kind"] == "match_started") == sorted(every)
    # Nothing was being played when these connected: no snapshot.
    assert ada_socket.snapshot == ada_lines.snapshot == bob_sse.snapshot == []
    bot_turns = [row for row in rows if row["payload"]["match"] in {m["id"] for m in bots}]
    assert len(bot_turns) >= 3 * 2  # each bot reply, from the background, told Ada

    # Disconnect everyone; play on; resume each from where it stopped.
    ada_socket.ws.close()
    ada_lines.close()
    bob_seen = bob_sse.events[-1]["number"] if bob_sse.events else 0
    bob_sse.close()
    seen_socket, seen_lines = ada_socket.events, ada_lines.events
    turns(1)
    settled()
    rows = stored(ada)
    socket = Socket(server, ada_token, after=seen_socket[-1]["number"])
    lines = Reader(server, ada_token, params={"after": seen_lines[-1]["number"]})
    sse = Reader(server, bob_token, sse=True, headers={"Last-Event-ID": str(bob_seen)})
    socket.through(rows[-1]["number"])
    lines.through(rows[-1]["number"])
    # Each new connection opened with the matches being played: Ada's eight, Bob's five.
    for snapshot in (socket.snapshot, lines.snapshot):
        assert {entry["match"] for entry in snapshot} == every and len(snapshot) == 8
        assert all(entry["seat"] == 0 for entry in snapshot)
    same(seen_socket + socket.events, rows)
    same(seen_lines + lines.events, rows)
    bob_rows = stored(bob)
    sse.through(bob_rows[-1]["number"])
    same(bob_sse.events + sse.events, bob_rows)
    assert {entry["match"] for entry in sse.snapshot} == {match["id"] for match in friends}
    assert len(sse.snapshot) == 5 and all(entry["seat"] == 1 for entry in sse.snapshot)

    # Eve, in no match, heard nothing but keep-alives.
    assert eve_lines.events == [] and eve_lines.blank >= 1
    for reader in (lines, sse, eve_lines):
        reader.close()
    socket.ws.close()


def test_bad_requests_are_precise_and_a_token_holds_a_bounded_number_of_streams(server):
    _, token = players.player_create(name="Cy")
    with httpx.Client(base_url=server.base, timeout=WAIT_SECONDS) as client:
        response = client.get("/api/v1/stream")
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"
        auth = {"Authorization": f"Bearer {token}"}
        for params, headers in (({"after": "x"}, {}), ({"after": "-1"}, {}),
                                ({}, {"Last-Event-ID": "twelve"}), ({"since": "1"}, {})):
            response = client.get("/api/v1/stream", params=params, headers={**auth, **headers})
            assert response.status_code == 400, (params, headers)
            body = response.json()
            assert body["code"] == "invalid" and body["errors"]
        # 4 streams per token in a process; the server runs 2: a ninth is refused at the
        # latest, wherever the streams land.
        readers = []
        for _ in range(9):
            reader = Reader(server, token)
            wait_for(lambda r=reader: r.status is not None and (r.status != 200 or r.blank))
            readers.append(reader)
            if reader.status == 429:
                break
        statuses = [reader.status for reader in readers]
        assert statuses[-1] == 429 and set(statuses[:-1]) == {200} and len(statuses) >= 5
        for reader in readers:
            reader.close()


def test_the_events_feed_waits_for_an_event_or_its_seconds(server):
    from server.spitemalice import services

    ada, ada_token = players.player_create(name="Wa")
    bob, bob_token = players.player_create(name="Wb")
    match = services.match_start_friend(player=ada, opponent=bob, target=50)
    tokens = {0: ada_token, 1: bob_token}
    mover = match.turn
    waiter = Http(server, tokens[1 - mover])
    feed = f"{MATCHES}/{match.pk}/events"
    latest = waiter.get(feed).json()["last"]

    # Nothing happens: the answer comes when the seconds are up, empty.
    started = time.monotonic()
    response = waiter.get(feed, {"after": latest, "wait": 1})
    assert response.status_code == 200 and response.json()["events"] == []
    assert time.monotonic() - started >= 1

    # An event comes: the answer comes with it, long before its 60 seconds.
    answer: dict = {}
    thread = threading.Thread(target=lambda: answer.update(
        response=waiter.get(feed, {"after": latest, "wait": 60})), daemon=True)
    thread.start()
    # Held: the server listens for the seat's notices (else the event would be there already).
    wait_for(lambda: held_for(server, match.pk, 1 - mover))
    view = Http(server, tokens[mover]).get(f"{MATCHES}/{match.pk}").json()
    game = view["game"]
    assert Http(server, tokens[mover]).post(
        f"{MATCHES}/{match.pk}/actions",
        {"action": greedy(game), "game": game["number"], "actions": game["actions"]},
    ).status_code == 200
    thread.join(WAIT_SECONDS)
    assert not thread.is_alive()
    body = answer["response"].json()
    assert answer["response"].status_code == 200
    assert body["events"] and body["events"][0]["number"] == latest + 1

    # Events there already: at once. Bad values: the feed's precise 400.
    assert waiter.get(feed, {"after": 0, "wait": 60}).json()["events"]
    for wait in ("61", "-1", "x", ""):
        response = waiter.get(feed, {"after": latest, "wait": wait})
        assert response.status_code == 400, wait
        assert [error["field"] for error in response.json()["errors"]] == ["wait"]


def test_the_account_socket_authenticates_and_closes_as_a_match_socket_does(server):
    from websockets.exceptions import ConnectionClosed

    _ada, token = players.player_create(name="So")

    def closed_with(ws, send: str | None = None) -> int:
        if send is not None:
            ws.send(send)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=WAIT_SECONDS)
        return closed.value.rcvd.code

    # By its first message: ready, then a ping's pong.
    ws = server.ws("/ws/account")
    ws.send(json.dumps({"type": "auth", "token": token}))
    assert json.loads(ws.recv(timeout=WAIT_SECONDS)) == {"type": "ready", "last": 0,
                                                         "matches": []}
    ws.send(json.dumps({"type": "ping"}))
    assert json.loads(ws.recv(timeout=WAIT_SECONDS)) == {"type": "pong"}
    assert closed_with(ws, "not json") == 4400
    assert closed_with(server.ws("/ws/account"),
                       json.dumps({"type": "auth", "token": "no such token"})) == 4401
    assert closed_with(server.ws("/ws/account", token="no such token")) == 4401
    assert closed_with(server.ws("/ws/account?after=x", token=token)) == 4400


def test_a_servers_stop_ends_its_streams_and_answers_its_held_feeds(tmp_path_factory,
                                                                    django_db_setup):
    """On SIGTERM the open account streams end cleanly (their clients reconnect with
    ``after``) and a feed request held with ``wait=`` is answered at once, as its seconds had
    passed. Before, each held its worker's stop for gunicorn's graceful_timeout (20 s), and the
    worker was then killed under them: the streams broke off mid-response and the held request
    was never answered."""
    from server.spitemalice import services

    ada, ada_token = players.player_create(name="Stop a")
    bob, bob_token = players.player_create(name="Stop b")
    tokens = {0: ada_token, 1: bob_token}
    with live_server(tmp_path_factory, needs="the stream tests", env={}) as running:
        match = services.match_start_friend(player=ada, opponent=bob, target=50)
        lines, sse = Reader(running, ada_token), Reader(running, bob_token, sse=True)
        wait_for(lambda: lines.status and sse.status)
        waiter = Http(running, tokens[1 - match.turn])
        feed = f"{MATCHES}/{match.pk}/events"
        latest = waiter.get(feed).json()["last"]
        answer: dict = {}

        def held() -> None:
            try:
                answer["response"] = waiter.get(feed, {"after": latest, "wait": 60})
            except httpx.HTTPError as error:
                answer["error"] = error

        thread = threading.Thread(target=held, daemon=True)
        thread.start()
        wait_for(lambda: held_for(running, match.pk, 1 - match.turn))

        os.killpg(running.process.pid, signal.SIGTERM)
        thread.join(WAIT_SECONDS)
        assert "error" not in answer, answer
        assert answer["response"].status_code == 200
        assert answer["response"].json()["events"] == []
        for reader in (lines, sse):
            assert reader.ended.wait(WAIT_SECONDS)
            assert reader.error is None, reader.error
            assert reader.status == 200 and reader.snapshot  # the match being played
        assert running.process.wait(WAIT_SECONDS) == 0
    assert "graceful shutdown exceeded" not in running.log()
