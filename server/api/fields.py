"""Serializer fields that take JSON types at their word: no "3" for 3, no 3 for "3"."""

from django.core.validators import RegexValidator
from rest_framework import serializers


class StrictIntegerField(serializers.IntegerField):
    """An integer in JSON, not a string, float or boolean that looks like one."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A string in JSON, not a number that could be written as one.

    DRF refuses NUL characters in every string; saying so as a pattern puts it in the schema.
    """

    default_error_messages = {"invalid": "Not a string."}
    NO_NUL = RegexValidator(r"^[^\x00]*$", "Null characters are not allowed.")

    def __init__(self, **kwargs):
        validators = list(kwargs.pop("validators", []))
        if not any(isinstance(validator, RegexValidator) for validator in validators):
            validators.append(self.NO_NUL)
        super().__init__(validators=validators, **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
