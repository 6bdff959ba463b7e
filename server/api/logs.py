"""The log's view of what clients do wrong: a warning, never an error with a traceback."""

from __future__ import annotations

import logging


class ClientFaultFilter(logging.Filter):
    """Django logs a request it refuses as suspicious (``SuspiciousOperation``: 1,001 query
    parameters, a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, a host not allowed) on
    ``django.security.<kind>`` at ERROR with its traceback, then answers 400. A client sent
    it; nothing in the server failed: this makes the record a warning with its message and no
    traceback, so the log's errors stay the server's own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security.") and record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
