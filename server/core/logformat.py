"""How the app's log lines are written (``LOGGING`` in server/settings.py names these): the id of
the request being served in every line, and one JSON object a line when
``FOURSQUARE_LOG_FORMAT=json``. Standard library only, since logging is set up before the apps
are (server.core.requestlog sets the id)."""

from __future__ import annotations

import contextvars
import json
import logging
from datetime import UTC, datetime
from typing import Any

from server.api.formats import iso_datetime

# The request being served in this thread (or by this socket's tasks): its id, for the log.
request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "request_id", default=None)


class RequestIdFilter(logging.Filter):
    """Gives every record the id of the request (or socket) being served, or ``-``."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get() or "-"
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, request id, the fields a
    line carries (``extra={"fields": {...}}``; those that are None left out) and an
    exception's traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": iso_datetime(datetime.fromtimestamp(record.created, UTC),
                                 timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": request_id_var.get(),
        }
        fields = getattr(record, "fields", None)
        if fields:
            line.update((name, value) for name, value in fields.items() if value is not None)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, default=str, ensure_ascii=False)
