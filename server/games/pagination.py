"""Pages of ``GET /games``: DRF's cursor pagination, reading only the cursors it wrote.

DRF decodes any base64 it is given and hands the position inside to the database, so a forged
cursor (``base64("p=garbage")``) was a 500, and text that is not base64 at all quietly meant the
first page. Here a cursor is what ``next`` or ``previous`` carries, byte for byte, or it is
``400 invalid``, the rule of the boards' cursors too.
"""

from __future__ import annotations

import binascii
from base64 import b64decode, b64encode
from datetime import timedelta
from urllib import parse

from django.utils.dateparse import parse_datetime
from rest_framework import serializers
from rest_framework.pagination import Cursor, CursorPagination

from server.api.fields import QueryIntegerField
from server.api.inputs import StrictQuery
from server.api.problems import InvalidRequest

MAX_LIMIT = 100
DEFAULT_LIMIT = 20
_NOT_A_CURSOR = "Not a cursor from a `next` or `previous` link."


class GameListQuery(StrictQuery):
    limit = QueryIntegerField(required=False, min_value=1, max_value=MAX_LIMIT)
    cursor = serializers.CharField(required=False, trim_whitespace=False, max_length=1000)


class GamePagination(CursorPagination):
    ordering = "-created_at"
    page_size = DEFAULT_LIMIT
    page_size_query_param = "limit"
    max_page_size = MAX_LIMIT

    def paginate_queryset(self, queryset, request, view=None):
        query = GameListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        self._limit = query.validated_data.get("limit", DEFAULT_LIMIT)
        return super().paginate_queryset(queryset, request, view)

    def get_page_size(self, request):
        return self._limit

    def decode_cursor(self, request):
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is None:
            return None
        cursor = _decoded(encoded, offset_cutoff=self.offset_cutoff)
        if cursor is None:
            raise InvalidRequest(f"cursor: {_NOT_A_CURSOR}",
                                 errors=[{"field": "cursor", "message": _NOT_A_CURSOR}])
        return cursor


def _decoded(encoded: str, *, offset_cutoff: int) -> Cursor | None:
    """The cursor ``CursorPagination.encode_cursor`` wrote as ``encoded``, or None."""
    try:
        text = b64decode(encoded.encode("ascii"), validate=True).decode("ascii")
    except (UnicodeError, binascii.Error, ValueError):
        return None
    if b64encode(text.encode("ascii")).decode("ascii") != encoded:
        return None  # the same bytes, spelt another way
    try:
        tokens = parse.parse_qs(text, keep_blank_values=True, strict_parsing=bool(text))
    except ValueError:
        return None
    if not tokens.keys() <= {"o", "r", "p"} or any(len(value) != 1 for value in tokens.values()):
        return None
    offset = tokens.get("o", ["0"])[0]
    reverse = tokens.get("r", ["0"])[0]
    position = tokens.get("p", [None])[0]
    if not QueryIntegerField.PATTERN.fullmatch(offset) or len(offset) > 9:
        return None
    if int(offset) > offset_cutoff or reverse not in ("0", "1"):
        return None
    if position is not None and not _is_written_position(position):
        return None
    return Cursor(offset=int(offset), reverse=reverse == "1", position=position)


def _is_written_position(text: str) -> bool:
    """A ``created_at`` as the cursor writes it: ``str()`` of a datetime in UTC."""
    try:
        moment = parse_datetime(text)
    except ValueError:
        return False
    return (moment is not None and moment.utcoffset() == timedelta(0)
            and str(moment) == text)
