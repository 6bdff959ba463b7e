"""Usernames, and the password rule that depends on them.

A username follows the PRECIS UsernameCaseMapped profile (RFC 8265, through ``precis-i18n``):
letters and digits of any script and the printable ASCII symbols, no spaces, nothing invisible,
and right-to-left text only as the Bidi Rule (RFC 5893) allows. It has 3 to 32 characters. The
username is kept as typed (width-mapped and NFC, case preserved); ``username_key``, the
profile's case-mapped form, is what makes two usernames the same and what signing in matches.

A password may not be the username or the display name, nor too like either (Django's
``UserAttributeSimilarityValidator``, on both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.password_validation import UserAttributeSimilarityValidator
from django.core.exceptions import ValidationError
from precis_i18n import get_profile

if TYPE_CHECKING:
    from server.players.models import Player

MIN_LENGTH, MAX_LENGTH = 3, 32
USERNAME_FORMAT = "precis-username"
# The schema's pattern: a superset of the rule (no white space or control characters).
LOOSE_PATTERN = r"^[^\s\x00-\x1f\x7f-\x9f]+$"
USERNAME_RULE = (
    f"A username has {MIN_LENGTH} to {MAX_LENGTH} letters and digits of any script or printable "
    "ASCII symbols (such as '.', '_', '-', '@'), no spaces, and follows the PRECIS "
    "UsernameCaseMapped profile (RFC 8265); case is ignored."
)

_PRESERVED = get_profile("UsernameCasePreserved")
_MAPPED = get_profile("UsernameCaseMapped")
_SIMILARITY = UserAttributeSimilarityValidator(user_attributes=("username", "name"))


class InvalidUsername(ValueError):
    pass


def clean_username(raw: object) -> str:
    """The username as it is kept, if it follows the rule; raises ``InvalidUsername``."""
    if not isinstance(raw, str):
        raise InvalidUsername("A username is text.")
    try:
        username = _PRESERVED.enforce(raw)
    except UnicodeEncodeError as error:
        raise InvalidUsername(_refusal(error)) from None
    if not MIN_LENGTH <= len(username) <= MAX_LENGTH:
        raise InvalidUsername(f"A username has {MIN_LENGTH} to {MAX_LENGTH} characters.")
    return username


def _refusal(error: UnicodeEncodeError) -> str:
    reason = error.reason.removeprefix("DISALLOWED/")
    if reason == "empty":
        return "A username may not be empty."
    if reason == "bidi_rule":
        return ("A username mixes right-to-left and left-to-right text in a way that could "
                "display in a misleading order (RFC 5893's Bidi Rule).")
    char = error.object[error.start]
    if reason == "spaces":
        return "A username may not contain spaces."
    return (f"A username may not contain U+{ord(char):04X}: usernames take letters, digits and "
            "printable ASCII symbols, nothing invisible.")


def username_key(username: str) -> str | None:
    """The case-mapped form: two usernames with the same key are one. ``username`` is any text
    (what someone types to sign in); one that is no username has no key (``None``)."""
    try:
        return _MAPPED.enforce(username)
    except UnicodeEncodeError:
        return None


def password_likeness(password: str, player: Player) -> str | None:
    """Why ``password`` is too like ``player``'s username or display name, or ``None``."""
    try:
        _SIMILARITY.validate(password, player)
    except ValidationError as error:
        return " ".join(error.messages)
    return None
