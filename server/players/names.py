"""Display names: what is allowed and how two names are judged the same.

The rule is one regular expression, used both to validate and in the OpenAPI schema, so what the
schema promises is exactly what the server accepts: 2 to 24 characters, not starting or ending
with white space, and none of the invisible or control characters that could disguise a name
(C0/C1 controls, bidirectional overrides, zero-width spaces, byte-order marks). Zero-width
(non-)joiners stay allowed inside a name: Persian and Malayalam spelling needs them.
"""

from __future__ import annotations

import re
import secrets
import unicodedata

MIN_LENGTH, MAX_LENGTH = 2, 24
# Control and format characters that have no place in a name.
_HIDDEN = (
    "\\x00-\\x1f\\x7f-\\x9f\\u00ad\\u061c\\u180e\\u200b\\u200e\\u200f\\u2028-\\u202e"
    "\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb"
)


def visible_text_pattern(min_length: int, max_length: int) -> str:
    """``min_length`` to ``max_length`` characters (at least 2), no white space at either end,
    none of the hidden characters: the rule of a name, also for other names (leagues)."""
    return f"^[^\\s{_HIDDEN}][^{_HIDDEN}]{{{min_length - 2},{max_length - 2}}}[^\\s{_HIDDEN}]$"


NAME_PATTERN = visible_text_pattern(MIN_LENGTH, MAX_LENGTH)
NAME_RULE = (
    f"A name has {MIN_LENGTH} to {MAX_LENGTH} characters, does not start or end with a space, "
    "and has no control or invisible formatting characters."
)
_NAME = re.compile(NAME_PATTERN)
_GUEST_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


class InvalidName(ValueError):
    pass


def clean_name(raw: object) -> str:
    """The name, if it follows the rule; raises ``InvalidName`` saying why not."""
    if not isinstance(raw, str):
        raise InvalidName("A name is text.")
    if _NAME.fullmatch(raw):
        return raw
    if not MIN_LENGTH <= len(raw) <= MAX_LENGTH:
        raise InvalidName(f"A name has {MIN_LENGTH} to {MAX_LENGTH} characters.")
    if raw != raw.strip():
        raise InvalidName("A name may not start or end with a space.")
    raise InvalidName("A name may not contain control or invisible formatting characters.")


def name_key(name: str) -> str:
    """Two names with the same key are the same name (case, spacing, compatibility forms)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(folded.split()).replace("\u200c", "").replace("\u200d", "")


def guest_name() -> str:
    return "Player " + "".join(secrets.choice(_GUEST_ALPHABET) for _ in range(6))
