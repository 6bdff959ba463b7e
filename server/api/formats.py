"""How values are written in response bodies, in one place."""

from __future__ import annotations

from datetime import datetime
from typing import overload


@overload
def iso_datetime(value: datetime, timespec: str = ...) -> str: ...


@overload
def iso_datetime(value: None, timespec: str = ...) -> None: ...


def iso_datetime(value: datetime | None, timespec: str = "auto") -> str | None:
    """ISO 8601 in UTC with a 'Z', as DRF writes it (so stored responses replay identically);
    ``timespec`` as ``datetime.isoformat``'s (the log lines give milliseconds)."""
    if value is None:
        return None
    text = value.isoformat(timespec=timespec)
    return text[:-6] + "Z" if text.endswith("+00:00") else text
