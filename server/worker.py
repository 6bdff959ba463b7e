"""The gunicorn worker that serves ``server.asgi``: uvicorn on uvloop and httptools.

gunicorn keeps what it did for the WSGI workers (the master, a replacement for a worker that
dies, graceful restarts, gunicorn.conf.py); each worker runs one uvicorn event loop holding its
sockets, with ``--threads`` threads for the HTTP requests (``server.asgi``). Once the app is
loaded, the worker's garbage collector is set for a server's life (``collect_less``).
"""

from __future__ import annotations

import gc
import os

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn_worker import UvicornWorker

from server.api import stopping


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, which also tells the app when the server begins to stop
    (``server.api.stopping``): the requests held open then end at once instead of holding the
    worker's stop until gunicorn kills it."""

    def shutdown(self) -> None:
        stopping.begin()
        super().shutdown()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, but a text frame that is not UTF-8 is the client's
    fault, not the server's: refused as uvicorn refuses it (close 1007) with a warning, not an
    ERROR with a traceback."""

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                data.decode()
            except UnicodeDecodeError as error:
                self.frames = []
                self.logger.warning("A WebSocket text frame from %s was not UTF-8 (%s at byte "
                                    "%d): closed with 1007", self.client, error.reason,
                                    error.start)
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()


# New objects a collection of Python's youngest generation waits for (Python's default: 700).
GC_YOUNGEST = 50_000


def collect_less() -> None:
    """Set the cyclic garbage collector for a long-lived server process, once its app is
    loaded: what was loaded (Django, the apps, their modules: about 120,000 objects a worker)
    is moved out of the collector's sight for good (``gc.freeze``), and the youngest generation
    is collected after 50,000 new objects instead of 700, so the older generations, whose
    collections walk everything they hold with the whole process stopped, are collected about
    a tenth as often. Under the paced Spite & Malice mix each worker spent about 1 s of CPU in
    a minute and a half on collections of the oldest generation, 100 ms each (up to 340 ms on
    the clock on a busy machine, every thread and socket of the worker waiting); with this,
    0.14 s (docs/OPERATIONS.md, "The paced mix's tail"). Anything no longer reachable is still
    freed: at once by its reference count, or by the next collection when it is in a cycle."""
    gc.collect()
    gc.freeze()
    _youngest, middle, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNGEST, middle, oldest)


class Worker(UvicornWorker):
    CONFIG_KWARGS = {
        "loop": "uvloop",
        "http": "server.worker:HttpProtocol",  # uvicorn's httptools, telling of a stop
        "ws": "server.worker:WebSocketProtocol",  # uvicorn's websockets-sansio, quieter
        # Channels has no use for lifespan events.
        "lifespan": "off",
        # The app reads X-Forwarded-* itself, trusting only DJANGO_NUM_PROXIES of them, as
        # under the WSGI workers: uvicorn rewriting the client's address would bypass that.
        "proxy_headers": False,
        "server_header": False,
        # A connection closed just as a client reuses it costs that request a retry (a client
        # sees it as a dropped connection, a load balancer as a 502). Keep idle connections
        # longer than a player's pause between two actions and than the idle timeout of the
        # load balancers in front (60 s by default on AWS's and Google's): under `make load`,
        # uvicorn's 5 s met the players' 5 s waits for their turn and dropped a few requests a
        # run. An idle connection costs the event loop a few kilobytes and no work.
        "timeout_keep_alive": 75,
        # A client sends a few small JSON messages; nothing needs more.
        "ws_max_size": 64 * 1024,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
    }

    def load_wsgi(self) -> None:
        # The one knob for the HTTP threads, whichever way gunicorn was given it.
        os.environ["GUNICORN_THREADS"] = str(self.cfg.threads)
        super().load_wsgi()
        collect_less()
