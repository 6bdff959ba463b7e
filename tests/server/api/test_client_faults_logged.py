"""What a client does wrong is logged as a warning without a traceback, on the real server
(gunicorn, one uvicorn worker): a WebSocket text frame that is not UTF-8 (closed 1007) and a
request with 1,001 query parameters (answered 400). Errors and tracebacks in the log are the
server's own failures only."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed

from tests.asgi_server import TEST_REDIS_URL, asgi_server, database_url
from tests.serving import WAIT_SECONDS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


def test_a_bad_frame_and_too_many_parameters_log_a_warning_without_a_traceback(
        tmp_path_factory):
    with asgi_server(database_url=database_url(), redis_url=TEST_REDIS_URL, workers=1,
                     log_dir=tmp_path_factory.mktemp("asgi")) as server:
        socket = server.ws("/ws/account")
        socket.send(b"{\"token\": \"\xff\xfe\"}", text=True)
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=WAIT_SECONDS)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007

        query = "&".join(f"p{index}=1" for index in range(1001))
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.base}/api/v1/spite-malice/ratings?{query}",
                                   timeout=WAIT_SECONDS)
        assert refused.value.code == 400
    log = server.log()

    assert "Traceback" not in log and " ERROR " not in log, log
    assert "[WARNING] A WebSocket text frame from" in log, log
    assert "was not UTF-8" in log and "closed with 1007" in log
    assert "WARNING django.security.TooManyFieldsSent " in log, log
