"""WSGI entry point: `gunicorn server.wsgi`."""

import os

from server.api.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")

application = get_wsgi_application()
