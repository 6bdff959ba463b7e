"""Invitation codes: eight characters of Crockford's base32, which a code read aloud or copied
by hand survives (no I, L, O or U; on the way in, I and L read as 1 and O as 0, as Crockford
says). Spite & Malice's friend matches and Foursquare's races are joined with them."""

from __future__ import annotations

import secrets

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8
_READS_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})


def new_code(length: int = CODE_LENGTH) -> str:
    """A fresh random code (32^8 of them: a collision is rare; the unique column decides)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def code_normalise(text: str, length: int = CODE_LENGTH) -> str | None:
    """The code ``text`` names, in any case, with spaces or dashes between its characters;
    None if it cannot be one."""
    if not isinstance(text, str):
        return None
    code = "".join(text.split()).replace("-", "").upper().translate(_READS_AS)
    if len(code) != length or any(char not in CODE_ALPHABET for char in code):
        return None
    return code
