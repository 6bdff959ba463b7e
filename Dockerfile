# The app image: gunicorn's uvicorn workers serving the ASGI app (pages, API and live sockets on
# port 8000), static files served by whitenoise from the image.
# docker-compose.yml runs it beside PostgreSQL and Redis; docs/OPERATIONS.md covers the rest.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# Dependencies first, so that a code change does not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir foursquare server \
    && touch foursquare/__init__.py server/__init__.py \
    && pip install . \
    && pip uninstall -y foursquare-daily
COPY . .
# collectstatic loads the settings, which make a secret key on first start: it keeps that
# throwaway key out of the image.
RUN pip install --no-deps . \
    && FOURSQUARE_DATA_DIR=/tmp/build-data python manage.py collectstatic --noinput --verbosity 0 \
    && rm -rf /tmp/build-data \
    && useradd --system --no-create-home app \
    && mkdir -p data \
    && chown app data

USER app
EXPOSE 8000
# /healthz answers 200 only when the database does; it is exempt from the HTTPS redirect. The
# Host header must be one of DJANGO_ALLOWED_HOSTS.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request as u; host = os.environ.get('DJANGO_ALLOWED_HOSTS', 'localhost').split(',')[0]; u.urlopen(u.Request('http://127.0.0.1:8000/healthz', headers={'Host': host}), timeout=2)"]
# gunicorn.conf.py names the app and the worker class.
CMD ["gunicorn", "--bind", "0.0.0.0:8000"]
