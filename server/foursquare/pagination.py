"""Pages of ``GET /games``: DRF's cursor pagination, with a cursor that is readable on purpose.

DRF's own cursor is base64 of a query string that it decodes and hands to the database: a
forged one (``base64("p=garbage")``) was a 500, and text that was not base64 at all quietly
meant the first page. Here, as on the boards, the cursor is plain text whose every string of
the published pattern is a place, and anything else is ``400 invalid``:
``n<offset>.<microseconds>`` continues after the game created at that instant (``next``),
``p<offset>.<microseconds>`` goes back before it (``previous``); ``offset`` skips the games
of that same instant already shown (DRF's rule).
"""

from __future__ import annotations

import re

from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.utils.urls import replace_query_param

from server.api.cursors import NEXT_OR_PREVIOUS, micros_of, moment_of, not_a_cursor
from server.api.fields import QueryIntegerField
from server.api.inputs import StrictQuery

MAX_LIMIT = 100
DEFAULT_LIMIT = 20
CURSOR_PATTERN = r"^[np](0|[1-9][0-9]{0,2})(\.[0-9]{1,16})?$"
_CURSOR = re.compile(CURSOR_PATTERN)
# The query parameters of a page of games or of races, as the OpenAPI document gives them.
PAGE_PARAMETERS = [
    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                     description=f"Page size, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT})."),
    OpenApiParameter("cursor", {"type": "string", "pattern": CURSOR_PATTERN},
                     description="From `next` or `previous`."),
]


class GameListQuery(StrictQuery):
    limit = QueryIntegerField(required=False, min_value=1, max_value=MAX_LIMIT)
    cursor = serializers.CharField(required=False, trim_whitespace=False)


class GamePagination(CursorPagination):
    ordering = "-created_at"
    page_size = DEFAULT_LIMIT
    page_size_query_param = "limit"
    max_page_size = MAX_LIMIT
    offset_cutoff = 999  # the pattern's three digits

    def paginate_queryset(self, queryset, request, view=None):
        query = GameListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        self._limit = query.validated_data.get("limit", DEFAULT_LIMIT)
        return super().paginate_queryset(queryset, request, view)

    def get_page_size(self, request):
        return self._limit

    def decode_cursor(self, request):
        text = request.query_params.get(self.cursor_query_param)
        if text is None:
            return None
        if not _CURSOR.fullmatch(text):
            raise not_a_cursor(NEXT_OR_PREVIOUS)
        head, _, micros = text.partition(".")
        position = str(moment_of(micros)) if micros else None
        return Cursor(offset=int(head[1:]), reverse=head[0] == "p", position=position)

    def encode_cursor(self, cursor):
        text = ("p" if cursor.reverse else "n") + str(cursor.offset)
        if cursor.position is not None:
            moment = parse_datetime(cursor.position)
            text += f".{micros_of(moment)}"
        return replace_query_param(self.base_url, self.cursor_query_param, text)
