"""The base of every request-body serializer: unknown fields are an error, not ignored.

A client that misspells ``"move"`` as ``"mvoe"`` should hear about it instead of silently
losing its concurrency check. The OpenAPI schema says the same (``additionalProperties:
false``), via the extension below.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction
from rest_framework import serializers


class StrictInput(serializers.Serializer):
    # Fields whose choices are integers: a boolean, string or float that equals one of them
    # (true for 1, "50", 50.0) is refused, as a ChoiceField would take it.
    integer_choices: tuple[str, ...] = ()
    integer_message = "Not an integer."

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            for name in self.integer_choices:
                if isinstance(data.get(name), bool | str | float):
                    raise serializers.ValidationError({name: [self.integer_message]})
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["Unknown field."] for name in unknown}
                )
        return super().to_internal_value(data)


class StrictInputSchema(OpenApiSerializerExtension):
    target_class = StrictInput
    match_subclasses = True

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        return schema


class StrictQuery(serializers.Serializer):
    """The base of query-parameter serializers: ``?date=`` is an error, not "use the default"
    (DRF reads an empty query value as an absent one)."""

    def to_internal_value(self, data: Any) -> Any:
        # keys(): iterating the fields gives their names, which drf-stubs type as the fields.
        names = self.fields.keys()
        empty = sorted(name for name in names if data.get(name) == "")
        if empty:
            raise serializers.ValidationError(
                {name: ["Give a value, or leave the parameter out."] for name in empty}
            )
        return super().to_internal_value(data)
