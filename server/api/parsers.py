"""A JSON parser that answers hostile bodies with a 400, never a 500."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_NESTING = 32  # no request of this API nests deeper than a few levels
_SURROGATE = re.compile("[\ud800-\udfff]")


class DuplicateKey(ValueError):
    pass


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys differ: ``{"mode": "practice", "mode": "daily"}`` means nothing
    certain (parsers disagree on which wins), so it is refused rather than read one way."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(f"the key {json.dumps(key)} appears twice")
            seen.add(key)
    return data


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is too large")
    return value


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


def loads(text: str) -> Any:
    """``json.loads`` as the API reads bodies: no duplicate keys, no NaN or Infinity, no
    number too large for a float (``1e400``). Raises ``ValueError`` (or ``RecursionError``)."""
    return json.loads(text, object_pairs_hook=_object_without_duplicates,
                      parse_float=_finite_float, parse_constant=_reject_constant)


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


def _has_lone_surrogate(value: Any) -> bool:
    """A ``\\ud800`` escape with no partner is valid JSON syntax but no Unicode text: it can
    be neither stored nor written back in UTF-8 (RFC 8259 section 8.2, RFC 7493)."""
    level = [value]
    while level:
        following: list[Any] = []
        for item in level:
            if isinstance(item, str):
                if _SURROGATE.search(item):
                    return True
            elif isinstance(item, dict):
                following.extend(item)
                following.extend(item.values())
            elif isinstance(item, list):
                following.extend(item)
        level = following
    return False


class StrictJSONParser(JSONParser):
    """Rejects invalid UTF-8, lone surrogates, duplicate keys, non-finite numbers, very deep
    nesting and non-object bodies."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        charset = _charset(media_type or "")
        if charset not in (None, "utf-8", "utf8"):
            from server.api.problems import UnsupportedMediaType

            raise UnsupportedMediaType(
                f"JSON is read in UTF-8 only, not in the charset {charset[:40]!r}.")
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
            data = loads(text)
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_NESTING} levels.") from None
        except DuplicateKey as error:
            raise ParseError(f"The body is ambiguous: {error}.") from None
        except ValueError as error:
            raise ParseError(f"Malformed JSON: {error}") from None
        if _depth(data) > MAX_NESTING:
            raise ParseError(f"JSON nested deeper than {MAX_NESTING} levels.")
        if not isinstance(data, dict):
            raise ParseError("The body must be a JSON object.")
        if _has_lone_surrogate(data):
            raise ParseError("The body has a lone UTF-16 surrogate escape (\\ud800-\\udfff "
                             "without its pair): it is not Unicode text.")
        return data


def _charset(media_type: str) -> str | None:
    for parameter in media_type.split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower()
    return None
