"""The OpenAPI document's components as JSON Schema, to validate real answers and messages
with ``jsonschema``: OpenAPI 3.0's ``nullable`` becomes a ``null`` alternative, and with
``closed`` every object that lists its properties takes no others (an undeclared member fails
the validation instead of passing unseen)."""

from __future__ import annotations

import copy

import jsonschema

COMPONENTS = "#/components/schemas/"


def _convert(schema, closed: bool):
    if isinstance(schema, list):
        return [_convert(item, closed) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: _convert(value, closed) for key, value in schema.items()
                 if key not in ("nullable", "discriminator")}
    if closed and "properties" in converted and "additionalProperties" not in converted:
        converted["additionalProperties"] = False
    if schema.get("nullable"):
        converted = {"anyOf": [converted, {"type": "null"}]}
    return converted


def validator(document: dict, component: str, *, closed: bool = True):
    """A validator of ``component`` of ``document`` (an OpenAPI or AsyncAPI document, both
    keep their schemas under ``components.schemas``)."""
    schemas = _convert(copy.deepcopy(document["components"]["schemas"]), closed)
    root = {"components": {"schemas": schemas}, "$ref": COMPONENTS + component}
    return jsonschema.Draft202012Validator(root)


def errors(document: dict, component: str, value, *, closed: bool = True) -> list[str]:
    """Why ``value`` does not fit ``component`` (nothing if it does)."""
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
            for error in validator(document, component, closed=closed).iter_errors(value)]
