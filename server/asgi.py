"""The ASGI application every server process runs: HTTP and the live sockets on one port.

HTTP goes to the same Django WSGI application gunicorn's gthread workers ran
(``server.api.wsgi``, with its request that cannot fail while it is built), on a pool of
``GUNICORN_THREADS`` threads per process (``server.asgi_http``). Django's own ASGI handler runs
every synchronous view of a process on one shared thread and measured below the WSGI server on
`make load` (docs/OPERATIONS.md has the figures); ``FOURSQUARE_ASGI_HTTP=django`` serves with it
instead, to measure again.

The requests that wait (the account stream ``/api/v1/stream``, held open for minutes, and a
match's events feed asked to wait with ``wait=``) go to Django's own ASGI handler instead, whose
async views wait on the event loop rather than hold one of the few request threads.

WebSockets go to Channels: ``/ws/spite-malice/matches/<id>`` (server.spitemalice.live) and
``/ws/account`` (server.streams.consumers).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402 - settings named first

from server.api.wsgi import get_wsgi_application  # noqa: E402
from server.asgi_http import WaitingToDjango, WSGIOnThreads  # noqa: E402

django_wsgi = get_wsgi_application()  # sets Django up before the consumers' models load

from server.spitemalice.live.routing import origin_checked, websocket_urlpatterns  # noqa: E402


def _http():
    from django.core.asgi import get_asgi_application

    if os.environ.get("FOURSQUARE_ASGI_HTTP", "").strip() == "django":
        return get_asgi_application()
    return WaitingToDjango(
        WSGIOnThreads(django_wsgi, threads=int(os.environ.get("GUNICORN_THREADS", "") or 2)),
        get_asgi_application())


application = ProtocolTypeRouter({
    "http": _http(),
    "websocket": origin_checked(URLRouter(websocket_urlpatterns)),
})
