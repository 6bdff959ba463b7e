"""Display names: what is allowed and how two names are judged the same."""

from __future__ import annotations

import secrets
import unicodedata

MIN_LENGTH, MAX_LENGTH = 2, 24
_GUEST_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


class InvalidName(ValueError):
    pass


def clean_name(raw: object) -> str:
    """The name as stored: NFC, inner spaces collapsed, trimmed; raises ``InvalidName``."""
    if not isinstance(raw, str):
        raise InvalidName("A name is text.")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    for char in name:
        category = unicodedata.category(char)
        # Cc control, Cf format (zero-width and bidi overrides that disguise a name), Cs/Co/Cn.
        if category.startswith("C"):
            raise InvalidName(f"A name may not contain the character U+{ord(char):04X}.")
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise InvalidName(f"A name has {MIN_LENGTH} to {MAX_LENGTH} characters.")
    return name


def name_key(name: str) -> str:
    """Two names with the same key are the same name (case and compatibility forms folded)."""
    return unicodedata.normalize("NFKC", name).casefold().replace(" ", "")


def guest_name() -> str:
    return "Player " + "".join(secrets.choice(_GUEST_ALPHABET) for _ in range(6))
