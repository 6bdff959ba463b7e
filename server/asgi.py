"""The ASGI application every server process runs: HTTP and the live sockets on one port.

HTTP goes to the same Django WSGI application gunicorn's gthread workers ran
(``server.api.wsgi``, with its request that cannot fail while it is built), on a pool of
``GUNICORN_THREADS`` threads per process (``server.asgi_http``). Django's own ASGI handler runs
every synchronous view of a process on one shared thread and measured below the WSGI server on
`make load` (docs/OPERATIONS.md has the figures); ``FOURSQUARE_ASGI_HTTP=django`` serves with it
instead, to measure again.

The requests that wait wait on the event loop rather than hold one of the few request threads:
the account stream ``/api/v1/stream``, held open for minutes, goes to Django's own ASGI handler
(its view is async); a match's events feed asked to wait (``wait=``) is held by
``server.spitemalice.live.longpoll`` until it has an answer, then handed to the threads.

WebSockets go to Channels, routed by ``server.routing`` behind the Origin check
(``server.api.origins``): ``/ws/spite-malice/matches/<id>`` (server.spitemalice.live),
``/ws/account`` (server.streams.consumers) and ``/ws/races/<id>``
(server.foursquare.races.consumers).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")

from channels.routing import ProtocolTypeRouter, URLRouter

from server.api.wsgi import get_wsgi_application
from server.asgi_http import Routed, WSGIOnThreads
from server.env import env_int

django_wsgi = get_wsgi_application()  # sets Django up before the consumers' models load

from server.api.origins import origin_checked  # noqa: E402
from server.routing import websocket_urlpatterns  # noqa: E402
from server.spitemalice.live import longpoll  # noqa: E402


def _http():
    from django.core.asgi import get_asgi_application

    if os.environ.get("FOURSQUARE_ASGI_HTTP", "").strip() == "django":
        django_asgi = get_asgi_application()
        return Routed(django_asgi, [(longpoll.waits, longpoll.EventsWait(django_asgi))])
    threads = WSGIOnThreads(django_wsgi, threads=env_int("GUNICORN_THREADS", 2))
    return Routed(threads, [
        (lambda scope: scope.get("path") == "/api/v1/stream", get_asgi_application()),
        (longpoll.waits, longpoll.EventsWait(threads)),
    ])


application = ProtocolTypeRouter({
    "http": _http(),
    "websocket": origin_checked(URLRouter(websocket_urlpatterns)),
})
