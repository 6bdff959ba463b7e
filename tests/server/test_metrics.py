"""/metrics: refused without its token, well-formed for Prometheus (``promtool check metrics``),
counting what happens, and adding up every process of a gunicorn server."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from django.test import Client
from prometheus_client import multiprocess
from prometheus_client.mmap_dict import MmapedDict, mmap_key

from server.core.metrics import REGISTRY, multiprocess_files
from server.players import services as players
from tests.asgi_server import asgi_server, database_url
from tests.server.conftest import assert_problem
from tests.server.spitemalice.support import act, greedy, start
from tests.server.test_production import PRODUCTION_ENV, _refusal, _settings_in
from tests.serving import WAIT_SECONDS

TOKEN = "metrics-token-for-the-tests-only-0123456789"


@pytest.fixture
def metrics_token(settings) -> str:
    settings.FOURSQUARE_METRICS_TOKEN = TOKEN
    return TOKEN


def scrape() -> str:
    """What a Prometheus with the token reads (a client of its own: a player's would send the
    player's token)."""
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    return response.content.decode()


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


# --- Who may read it -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_without_a_token_set_metrics_is_not_found(settings, api):
    settings.FOURSQUARE_METRICS_TOKEN = ""
    response = api.client.get("/metrics", HTTP_ACCEPT="application/json",
                              HTTP_AUTHORIZATION="Bearer ")
    assert_problem(response, 404, "not_found")


@pytest.mark.django_db
@pytest.mark.parametrize("authorization", [None, "Bearer wrong", f"Basic {TOKEN}",
                                           f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}"])
def test_metrics_refuses_a_request_without_the_token(metrics_token, api, authorization):
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}
    response = api.client.get("/metrics", **headers)
    assert_problem(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert b"foursquare_" not in response.content


@pytest.mark.django_db
def test_metrics_answers_with_the_token(metrics_token, api):
    assert "# TYPE foursquare_requests_total counter" in scrape()


@pytest.mark.django_db
def test_a_scrape_leaves_out_a_process_file_not_yet_sized(metrics_token, tmp_path, monkeypatch):
    """A process's file exists at 0 bytes between its creation and its sizing, and stays so if
    the process is killed then: the scrape reads the other processes' files and answers."""
    written = MmapedDict(str(tmp_path / "counter_101.db"))
    written.write_value(mmap_key("foursquare_requests", "foursquare_requests_total",
                                 ["route", "method", "status"], ["healthz", "GET", "2xx"],
                                 "HTTP requests answered."), 3.0, 0)
    written.close()
    (tmp_path / "counter_102.db").touch()  # created, not yet sized
    (tmp_path / "histogram_102.db").touch()
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    text = scrape()
    assert 'foursquare_requests_total{method="GET",route="healthz",status="2xx"} 3.0' in text
    assert multiprocess_files(str(tmp_path)) == [str(tmp_path / "counter_101.db")]


def test_production_refuses_a_short_metrics_token():
    assert "FOURSQUARE_METRICS_TOKEN" in _refusal({**PRODUCTION_ENV,
                                                   "FOURSQUARE_METRICS_TOKEN": "guessable"})
    token = "x" * 40
    assert _settings_in({**PRODUCTION_ENV, "FOURSQUARE_METRICS_TOKEN": token},
                        "FOURSQUARE_METRICS_TOKEN") == {"FOURSQUARE_METRICS_TOKEN": token}


def test_metrics_stays_plain_http_for_scrapes_inside_the_network_as_healthz_does():
    exempt = _settings_in(PRODUCTION_ENV, "SECURE_REDIRECT_EXEMPT")["SECURE_REDIRECT_EXEMPT"]
    assert {r"^healthz$", r"^metrics$"} <= set(exempt)


# --- What it counts ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_requests_are_counted_by_route_pattern_never_by_path(metrics_token, player_api,
                                                             practice_game):
    route = "api/v1/games/<uuid:game_id>"
    before = value("foursquare_requests_total", route=route, method="GET", status="2xx")
    cpu_before = value("foursquare_request_cpu_seconds_total", route=route, method="GET")
    assert player_api.get(f"games/{practice_game['id']}").status_code == 200
    assert player_api.get("games/00000000-0000-0000-0000-000000000000").status_code == 404
    text = scrape()
    assert value("foursquare_requests_total", route=route, method="GET",
                 status="2xx") == before + 1
    assert value("foursquare_requests_total", route=route, method="GET", status="4xx") >= 1
    assert value("foursquare_request_duration_seconds_count", route=route, method="GET") >= 2
    assert value("foursquare_request_cpu_seconds_total", route=route, method="GET") > cpu_before
    assert practice_game["id"] not in text


def test_a_request_counts_the_cpu_its_thread_spent_not_its_wait():
    """foursquare_request_cpu_seconds: the CPU time of the thread that served the request. One
    that computes for 30 ms of CPU adds at least that; one that waits 200 ms (for a lock, the
    database, a core) adds next to nothing, where its duration counts the whole wait."""
    from django.http import HttpResponse
    from django.test import RequestFactory

    from server.core.requestlog import RequestObservedMiddleware

    def computes(request):
        started = time.thread_time()
        while time.thread_time() - started < 0.03:
            pass
        return HttpResponse("computed")

    def waits(request):
        time.sleep(0.2)
        return HttpResponse("waited")

    labels = {"route": "unmatched", "method": "GET"}
    for view, least, most in ((computes, 0.03, 10.0), (waits, 0.0, 0.1)):
        cpu_before = value("foursquare_request_cpu_seconds_total", **labels)
        duration_before = value("foursquare_request_duration_seconds_sum", **labels)
        response = RequestObservedMiddleware(view)(RequestFactory().get("/nowhere"))
        assert response.status_code == 200
        spent = value("foursquare_request_cpu_seconds_total", **labels) - cpu_before
        assert least <= spent < most, (view.__name__, spent)
        assert value("foursquare_request_duration_seconds_sum", **labels) - duration_before >= (
            0.2 if view is waits else spent)


@pytest.mark.django_db
def test_a_move_stored_an_illegal_one_and_a_stale_one_are_counted(metrics_token, player_api,
                                                                   practice_game):
    stored = sum(value("foursquare_moves_stored_total", path=path) for path in ("fast", "full"))
    illegal = value("foursquare_moves_refused_total", reason="illegal")
    stale = value("foursquare_moves_refused_total", reason="stale")
    moves = f"games/{practice_game['id']}/moves"
    row, col = practice_game["legal_moves"][0]

    assert player_api.post(moves, {"row": row, "col": col, "move": 0}).status_code == 200
    # After the first card, a cell far from every pile is never legal.
    assert_problem(player_api.post(moves, {"row": 50, "col": 50}), 422, "illegal_move")
    assert_problem(player_api.post(moves, {"row": row, "col": col, "move": 0}), 409,
                   "stale_move")

    assert sum(value("foursquare_moves_stored_total", path=path)
               for path in ("fast", "full")) == stored + 1
    assert value("foursquare_moves_refused_total", reason="illegal") == illegal + 1
    assert value("foursquare_moves_refused_total", reason="stale") == stale + 1


@pytest.mark.django_db
def test_an_action_stored_and_a_stale_one_are_counted(metrics_token, player_api):
    match = start(player_api, target=50)
    stored = sum(value("foursquare_actions_stored_total", path=path)
                 for path in ("fast", "full"))
    stale = value("foursquare_actions_refused_total", reason="stale")
    assert act(player_api, match, greedy(match["game"])).status_code == 200
    assert_problem(act(player_api, match, greedy(match["game"]), actions=99), 409,
                   "stale_action")
    assert sum(value("foursquare_actions_stored_total", path=path)
               for path in ("fast", "full")) == stored + 1
    assert value("foursquare_actions_refused_total", reason="stale") == stale + 1


@pytest.mark.django_db
def test_a_request_over_its_rate_limit_is_counted_once(metrics_token, settings, player_api,
                                                       practice_game):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "1/min"}
    before = value("foursquare_rate_limit_refusals_total", scope="moves")
    moves = f"games/{practice_game['id']}/moves"
    row, col = practice_game["legal_moves"][0]
    assert player_api.post(moves, {"row": row, "col": col}).status_code == 200
    # Checked by the fast path first, then answered 429 by the full view: counted once.
    assert_problem(player_api.post(moves, {"row": 0, "col": 0}), 429, "throttled")
    assert value("foursquare_rate_limit_refusals_total", scope="moves") == before + 1


@pytest.mark.django_db
def test_the_job_queue_and_the_replica_are_read_at_scrape_time(metrics_token, api):
    from server.jobs.models import Job

    Job.objects.create(kind="test-metrics", key="1")
    text = scrape()
    assert 'foursquare_jobs{status="pending"} 1.0' in text
    assert "foursquare_job_oldest_pending_seconds " in text
    assert "foursquare_replica_lag_seconds 0.0" in text


def test_a_replica_lag_reader_replaces_the_zero(metrics_token):
    from server.core import metrics

    try:
        metrics.replica_lag_reader_set(lambda: 2.5)
        assert b"foursquare_replica_lag_seconds 2.5" in metrics.exposition()
        metrics.replica_lag_reader_set(lambda: None)  # the replica cannot be asked: left out
        assert b"foursquare_replica_lag_seconds" not in metrics.exposition()
    finally:
        metrics.replica_lag_reader_set(lambda: 0.0)


# --- Well-formed ---------------------------------------------------------------------------------


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        pytest.fail("promtool is missing: `make promtool` installs Debian's prometheus package")
    return found


@pytest.mark.django_db
def test_the_exposition_passes_promtool(metrics_token, settings, player_api, practice_game):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "1/min"}
    moves = f"games/{practice_game['id']}/moves"
    player_api.post(moves, {"row": 50, "col": 50, "move": 3})  # stale
    row, col = practice_game["legal_moves"][0]
    player_api.post(moves, {"row": row, "col": col})
    player_api.post(moves, {"row": row, "col": col})  # 429
    text = scrape()
    assert "foursquare_request_duration_seconds_bucket" in text
    checked = subprocess.run([promtool(), "check", "metrics"], input=text.encode(),
                             capture_output=True, timeout=30)
    assert checked.returncode == 0, checked.stdout.decode() + checked.stderr.decode()
    assert not checked.stdout.strip() and not checked.stderr.strip(), checked


# --- Under gunicorn ------------------------------------------------------------------------------


def _get(base: str, path: str, headers: dict[str, str] | None = None):
    """(status, headers (any case), body) of a GET on a connection of its own."""
    request = urllib.request.Request(base + path, headers=headers or {})
    with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
        return response.status, response.headers, response.read()


def _wait_for_sockets(server, expected: int) -> None:
    pattern = re.compile(r'^foursquare_sockets_open\{socket="account"\} (\S+)$', re.MULTILINE)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        _, _, body = _get(server.base, "/metrics", {"Authorization": f"Bearer {TOKEN}"})
        found = pattern.search(body.decode())
        if float(found.group(1) if found else 0) == expected:
            return
        assert time.monotonic() < deadline, body.decode()
        time.sleep(0.05)


def _health_counts(folder: Path) -> dict[str, float]:
    """The /healthz requests each process's file holds."""
    counts = {}
    # A worker's file that is not sized yet holds no count: multiprocess_files leaves it out.
    for path in map(Path, multiprocess_files(str(folder))):
        if not path.name.startswith("counter_"):
            continue
        total = 0.0
        for metric in multiprocess.MultiProcessCollector.merge([str(path)]):
            for sample in metric.samples:
                if (sample.name == "foursquare_requests_total"
                        and sample.labels.get("route") == "healthz"):
                    total += sample.value
        counts[path.name] = total
    return counts


@pytest.mark.django_db(transaction=True)
def test_two_workers_counts_add_up_and_each_request_logs_one_json_line(tmp_path):
    folder = tmp_path / "metrics"
    env = {"FOURSQUARE_METRICS_TOKEN": TOKEN, "PROMETHEUS_MULTIPROC_DIR": str(folder),
           "FOURSQUARE_LOG_FORMAT": "json", "DJANGO_LOG_LEVEL": "INFO"}
    folder.mkdir()
    (folder / "counter_1.db").write_bytes(b"left by an earlier run")
    with asgi_server(database_url=database_url(), redis_url=None, log_dir=tmp_path,
                     workers=2, env=env) as server:
        assert not (folder / "counter_1.db").exists()  # emptied as the server started
        sent = 0
        deadline = time.monotonic() + WAIT_SECONDS
        # Each request on a connection of its own, until both workers have answered some.
        while sum(1 for count in _health_counts(folder).values() if count > 0) < 2:
            assert time.monotonic() < deadline, _health_counts(folder)
            _get(server.base, "/healthz")
            sent += 1
        _status, headers, _ = _get(server.base, "/healthz",
                                  {"X-Request-ID": "haproxy-0123456789abcdef"})
        sent += 1
        assert headers["X-Request-ID"] == "haproxy-0123456789abcdef"
        _, _, body = _get(server.base, "/metrics", {"Authorization": f"Bearer {TOKEN}"})
        per_process = _health_counts(folder)

        # A socket counts as open on the node while it is, whichever process holds it.
        _, token = players.player_create(name="Watched")
        socket = server.ws("/ws/account", token=token)
        _wait_for_sockets(server, 1)
        socket.close()
        _wait_for_sockets(server, 0)

    # The health checks that waited for the server to start count too: the sum is every
    # process's own count, and two processes hold some.
    served = re.search(r'^foursquare_requests_total\{method="GET",route="healthz",'
                       r'status="2xx"\} (\S+)$', body.decode(), re.MULTILINE)
    assert served is not None, body
    assert float(served.group(1)) == sum(per_process.values()) >= sent
    assert sum(1 for count in per_process.values() if count > 0) == 2

    log = server.log()
    assert "haproxy-0123456789abcdef" in log
    assert '"GET /healthz HTTP/1.1" 200' not in log  # no access log besides the app's line
    request_lines = [line for line in log.splitlines() if '"foursquare.request"' in line]
    assert len([line for line in request_lines if '"route": "healthz"' in line]) >= sent
    mine = [json.loads(line) for line in request_lines
            if "haproxy-0123456789abcdef" in line]
    assert len(mine) == 1
    assert mine[0]["route"] == "healthz" and mine[0]["status"] == 200
    assert mine[0]["method"] == "GET" and mine[0]["duration_ms"] > 0


# --- Timed from the proxy (X-Request-Start) ------------------------------------------------------


def test_a_proxys_request_start_is_read_in_seconds_milliseconds_or_microseconds():
    from server.core.requestlog import request_start_of

    assert request_start_of("t=1796000000123") == pytest.approx(1796000000.123)
    assert request_start_of("t=1796000000.5") == pytest.approx(1796000000.5)
    assert request_start_of("t=1796000000123456") == pytest.approx(1796000000.123456)
    assert request_start_of("1796000000") == 1796000000.0
    for unreadable in (None, "", "t=", "t=soon"):
        assert request_start_of(unreadable) is None


@pytest.mark.django_db
def test_a_request_stamped_by_the_proxy_is_timed_from_the_stamp(metrics_token):
    """HAProxy stamps X-Request-Start (cluster/haproxy.cfg): the answer is timed from it as
    well, the wait before Django included; a stamp from the future or over an hour old (clocks
    apart, a forgery) is not counted."""
    route = {"route": "healthz", "method": "GET"}
    count = "foursquare_request_proxied_duration_seconds_count"
    before = value(count, **route), value("foursquare_request_proxied_duration_seconds_sum",
                                          **route)
    stamp = f"t={round((time.time() - 0.25) * 1000)}"
    assert Client().get("/healthz", HTTP_X_REQUEST_START=stamp).status_code == 200
    assert value(count, **route) == before[0] + 1
    waited = value("foursquare_request_proxied_duration_seconds_sum", **route) - before[1]
    assert 0.25 <= waited < 30
    for stamp in (f"t={round((time.time() + 60) * 1000)}", f"t={round(time.time() - 7200)}",
                  "t=soon", None):
        headers = {} if stamp is None else {"HTTP_X_REQUEST_START": stamp}
        assert Client().get("/healthz", **headers).status_code == 200
    assert value(count, **route) == before[0] + 1
    assert f"{count}{{method=\"GET\",route=\"healthz\"}}" in scrape()


@pytest.mark.django_db
def test_the_clock_sweeps_lag_is_read_from_the_newest_heartbeat(metrics_token):
    """The sweep runs on each process's clock thread beside its heartbeat (which replaced the
    sweep's own mark): the gauge is absent before any beat, then the newest beat's age."""
    from datetime import timedelta

    from django.utils import timezone

    from server.jobs import liveness

    assert "foursquare_clock_sweep_lag_seconds" not in scrape()
    liveness.beat(now=timezone.now() - timedelta(seconds=30), process="tests:old")
    liveness.beat(now=timezone.now() - timedelta(seconds=3), process="tests:new")
    found = re.search(r"^foursquare_clock_sweep_lag_seconds (\S+)$", scrape(), re.MULTILINE)
    assert found is not None and 3 <= float(found.group(1)) < 30
