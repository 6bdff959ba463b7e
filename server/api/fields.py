"""Serializer fields that take JSON types at their word (no "3" for 3, no 3 for "3"), and
query-string values in their canonical spelling only."""

from __future__ import annotations

import re
from datetime import date
from typing import Any
from uuid import UUID

from django.core.validators import RegexValidator
from rest_framework import serializers


class StrictIntegerField(serializers.IntegerField):
    """An integer in JSON, not a string, float or boolean that looks like one."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A string in JSON, not a number that could be written as one.

    DRF refuses NUL characters in every string; saying so as a pattern puts it in the schema.
    """

    default_error_messages = {"invalid": "Not a string."}
    NO_NUL = RegexValidator(r"^[^\x00]*$", "Null characters are not allowed.")

    def __init__(self, **kwargs: Any) -> None:
        validators = list(kwargs.pop("validators", []))
        if not any(isinstance(validator, RegexValidator) for validator in validators):
            validators.append(self.NO_NUL)
        super().__init__(validators=validators, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """true or false in JSON, not 1, "true" or "yes"."""

    default_error_messages = {"invalid": "Not a boolean: true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictUUIDField(serializers.UUIDField):
    """A UUID written as a string, not an integer that DRF would read as one."""

    def to_internal_value(self, data: Any) -> UUID:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


class CanonicalDateField(serializers.DateField):
    """A date written exactly ``YYYY-MM-DD`` (ASCII digits, zero-padded), and a day the
    calendar has. ``2026-1-5``, ``２０２６-…`` and ``2026-02-29`` are refused, not read
    generously: one spelling per date, the one every response writes."""

    default_error_messages = {
        "invalid": "Not a date: write it YYYY-MM-DD (e.g. 2026-11-29).",
        "no_such_day": "{value} is not a day of the calendar.",
    }
    PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

    def to_internal_value(self, value: Any) -> date:
        if not isinstance(value, str) or not self.PATTERN.fullmatch(value):
            self.fail("invalid")
        try:
            return date.fromisoformat(value)
        except ValueError:
            self.fail("no_such_day", value=value)


class QueryIntegerField(serializers.IntegerField):
    """A whole number in a query string, in its one canonical spelling: ASCII digits with no
    sign, space or leading zero (``5``, not ``+5``, `` 5``, ``05``, ``5.0`` or ``٥``)."""

    default_error_messages = {
        "invalid": "Write a whole number in ASCII digits, with no sign, space or leading zero.",
    }
    PATTERN = re.compile(r"0|[1-9][0-9]*")
    MAX_DIGITS = 18  # every bound of this API is far below; int() never meets a huge string

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not self.PATTERN.fullmatch(data):
            self.fail("invalid")
        if len(data) > self.MAX_DIGITS and self.max_value is not None:
            self.fail("max_value", max_value=self.max_value)
        if len(data) > self.MAX_DIGITS:
            self.fail("invalid")
        return int(data)
