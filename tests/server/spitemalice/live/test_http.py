"""HTTP through the ASGI server as gunicorn's WSGI workers answered it: the same environ
(server.asgi_http.environ_of), a chunked body read whole, the request that cannot fail while it
is built, bodies past the limit refused, a static module served whole."""

from __future__ import annotations

import http.client
import json

import pytest
from django.conf import settings

from server.asgi_http import environ_of
from tests.serving import WAIT_SECONDS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


def request(server, method: str, path: str, body: bytes | None = None, headers=None,
            chunks: list[bytes] | None = None):
    host, port = server.base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=WAIT_SECONDS)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if chunks is not None:
            connection.putheader("Transfer-Encoding", "chunked")
            connection.endheaders()
            for chunk in chunks:
                connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            connection.send(b"0\r\n\r\n")
        else:
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def test_a_chunked_body_is_read_whole(server):
    status, _, body = request(server, "POST", "/api/v1/players",
                              chunks=[b'{"name": ', b'"Chunky"}'],
                              headers={"Content-Type": "application/json"})
    assert status == 201, body
    assert json.loads(body)["name"] == "Chunky"


def test_too_many_query_parameters_with_a_charset_is_a_400_problem(server):
    query = "&".join(f"p{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    status, headers, body = request(server, "GET", f"/api/v1/leaderboard?{query}",
                                    headers={"Content-Type": "application/json; charset=utf-16"})
    assert status == 400, body
    assert headers["Content-Type"].startswith("application/problem+json")


def test_a_body_past_the_limit_is_a_413_problem(server):
    big = b'{"name": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    for extra in ({"body": big}, {"chunks": [big[i:i + 65536] for i in range(0, len(big), 65536)]}):
        status, headers, body = request(server, "POST", "/api/v1/players",
                                        headers={"Content-Type": "application/json"}, **extra)
        assert status == 413, body
        assert headers["Content-Type"].startswith("application/problem+json")


def test_answers_carry_their_length_and_a_head_has_no_body(server):
    status, headers, body = request(server, "GET", "/healthz")
    assert status == 200 and int(headers["content-length"]) == len(body) > 0
    status, headers, body = request(server, "HEAD", "/healthz")
    assert status == 200 and body == b""


def scope(**extra) -> dict:
    return {"type": "http", "method": "GET", "path": "/a b/é", "raw_path": b"/a%20b/%C3%A9",
            "query_string": b"x=1", "http_version": "1.1", "scheme": "http",
            "server": ("127.0.0.1", 8000), "client": ("10.0.0.7", 5555), "headers": [], **extra}


def test_the_environ_is_the_one_gunicorn_built():
    environ = environ_of(scope(headers=[
        (b"content-type", b"application/json"), (b"content-length", b"2"),
        (b"x-forwarded-for", b"1.1.1.1"), (b"x_forwarded_for", b"6.6.6.6"),
        (b"accept", b"a"), (b"accept", b"b"), (b"authorization", b"Bearer t")]), b"{}")
    # The raw path's bytes, as latin-1 text (WSGI's convention), and never a header whose name
    # has an underscore: it would pass for the one with a dash.
    assert environ["PATH_INFO"] == "/a b/\u00c3\u00a9"
    assert environ["QUERY_STRING"] == "x=1"
    assert environ["CONTENT_TYPE"] == "application/json" and environ["CONTENT_LENGTH"] == "2"
    assert environ["HTTP_X_FORWARDED_FOR"] == "1.1.1.1"
    assert environ["HTTP_ACCEPT"] == "a,b"
    assert environ["HTTP_AUTHORIZATION"] == "Bearer t"
    assert (environ["REMOTE_ADDR"], environ["SERVER_NAME"], environ["SERVER_PORT"]) == (
        "10.0.0.7", "127.0.0.1", "8000")
    assert environ["wsgi.input"].read() == b"{}"
    assert "HTTP_CONTENT_TYPE" not in environ and "HTTP_CONTENT_LENGTH" not in environ
