"""How values are written in response bodies, in one place."""

from __future__ import annotations

from datetime import datetime


def iso_datetime(value: datetime | None) -> str | None:
    """ISO 8601 in UTC with a 'Z', as DRF writes it (so stored responses replay identically)."""
    if value is None:
        return None
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text
