"""Schemathesis strategies for the schema's two name formats, ``precis-nickname`` and
``precis-username``: the schema's pattern is looser than the PRECIS profiles (which no regular
expression says), so positive requests draw their names from here, where every value follows the
rule that the field's description states. Passwords (``password``) are drawn from strong ones
that no drawn username resembles: a password too like the username is refused (400), as the
field's description says, and a random pair can be alike."""

import schemathesis
from hypothesis import strategies as st

from server.players import names, usernames

_REAL_NAMES = ["Ada Lovelace", "می\u200cخواهم", "علی\u200cرضا", "കാര്\u200dത്തിക്", "ნინო",
               "অর্ক", "Zoë", "Ａｄａ", "  Grace  "]
_ASCII_SYMBOLS = "".join(chr(c) for c in range(0x21, 0x7f) if not chr(c).isalnum())


def _is_nickname(value: str) -> bool:
    try:
        names.clean_text(value, subject="A name", min_length=names.MIN_LENGTH,
                         max_length=len(value))
    except names.InvalidName:
        return False
    return True


def _is_username(value: str) -> bool:
    try:
        usernames.clean_username(value)
    except usernames.InvalidUsername:
        return False
    return True


NICKNAMES = st.one_of(
    st.sampled_from(_REAL_NAMES),
    st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs")), min_size=2,
            max_size=names.MAX_LENGTH).filter(_is_nickname),
)
USERNAMES = st.text(
    st.one_of(st.characters(categories=("L", "Nd")), st.sampled_from(_ASCII_SYMBOLS)),
    min_size=usernames.MIN_LENGTH, max_size=usernames.MAX_LENGTH,
).filter(_is_username)

PASSWORDS = st.sampled_from(["difference-engine-1843", "analytical engine, 1837",
                             "Correct horse battery staple", "ℵ₀ < 2^ℵ₀ always"])

schemathesis.openapi.format(names.NAME_FORMAT, NICKNAMES)
schemathesis.openapi.format("password", PASSWORDS)
schemathesis.openapi.format(usernames.USERNAME_FORMAT, USERNAMES)
