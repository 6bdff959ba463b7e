"""The ``client_seed`` a request may carry (docs/FAIRNESS.md): 1-64 printable ASCII
characters, kept as sent; anything else is a 400 naming the field."""

from __future__ import annotations

from rest_framework import serializers

from fairness import CLIENT_SEED_MAX

CLIENT_SEED_PATTERN = r"^[ -~]*$"  # printable ASCII, space to tilde (the length apart)
CLIENT_SEED_HELP = (f"Your share of the deal's randomness: 1-{CLIENT_SEED_MAX} printable ASCII "
                    "characters (space to ~). Optional: one is drawn for you if you send none. "
                    "The deal is HMAC(the server seed committed at creation, the client seeds "
                    "in seat order) (docs/FAIRNESS.md).")


class ClientSeedField(serializers.RegexField):
    default_error_messages = {"invalid": "A client seed is printable ASCII (space to ~) only."}

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", CLIENT_SEED_HELP)
        super().__init__(CLIENT_SEED_PATTERN, min_length=1, max_length=CLIENT_SEED_MAX,
                         trim_whitespace=False, allow_blank=False, **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):  # CharField would turn a number into text
            raise serializers.ValidationError("Not a string.")
        return super().to_internal_value(data)
