"""A JSON parser that answers hostile bodies with a 400, never a 500."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_NESTING = 32  # no request of this API nests deeper than a few levels


def _depth(value: Any) -> int:
    depth, level = 0, [value]
    while level:
        depth += 1
        if depth > MAX_NESTING:
            return depth
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item
                          if isinstance(item, list) else ())
        ]
    return depth


class StrictJSONParser(JSONParser):
    """Rejects invalid UTF-8, non-finite numbers, very deep nesting and non-object bodies."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            # Imported here: problems imports DRF's views, which load this parser.
            from server.api.problems import PayloadTooLarge

            raise PayloadTooLarge(f"A request body may have at most {limit} bytes.")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError("The body is not valid UTF-8.") from None
        if not text.strip():
            return {}
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_NESTING} levels.") from None
        except ValueError as error:
            raise ParseError(f"Malformed JSON: {error}") from None
        if _depth(data) > MAX_NESTING:
            raise ParseError(f"JSON nested deeper than {MAX_NESTING} levels.")
        if not isinstance(data, dict):
            raise ParseError("The body must be a JSON object.")
        return data


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")
