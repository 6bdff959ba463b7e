FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . .
RUN pip install . \
    && python manage.py collectstatic --noinput --verbosity 0 \
    && useradd --system --no-create-home app \
    && mkdir -p data \
    && chown app data

USER app
EXPOSE 8000
CMD ["gunicorn", "server.wsgi", "--bind", "0.0.0.0:8000"]
