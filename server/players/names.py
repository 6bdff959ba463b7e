"""Display names (and league names): what they may be, and when two are the same name.

What a name may be is the PRECIS Nickname profile (RFC 8266, built on RFC 8264's FreeformClass,
through the ``precis-i18n`` package): letters, marks, digits, symbols, punctuation and spaces
of any script; never control, format, invisible ("default ignorable": variation selectors,
tags, fillers, zero-width spaces) or unassigned characters. A zero-width joiner or non-joiner
is allowed only where RFC 5892's CONTEXTJ rules say a script needs it: after a virama (Malayalam
chillu forms, Bengali and Malayalam conjuncts) or between letters that join (Persian "می‌خواهم").
The name is stored as the profile enforces it: every space character becomes a plain space,
spaces at either end go, runs of them become one, and compatibility forms are NFKC-normalised
("Ａｄａ" is stored as "Ada"). On top of the profile, one rule: no U+2800 BRAILLE PATTERN BLANK,
a symbol to the profile but drawn as nothing, and the usual way of making a name look empty
once the invisible characters are refused; and at most ``MAX_MARKS`` combining marks stacked
on one character.

Two names are the same name when their keys are equal (``name_key``): the profile's
case-mapped comparison form, without its spaces, joiners and combining marks (accents and
overlays: "Smith" and "Smith" with an acute accent over its h are one name; an Indic virama
stays), reduced to its confusable skeleton
(Unicode TR39, see ``server.players.skeleton``), so "Аda" in Cyrillic, "A da" and "ADA" are
all "Ada".
"""

from __future__ import annotations

import secrets
import unicodedata

from precis_i18n import get_profile

from server.players.skeleton import skeleton

MIN_LENGTH, MAX_LENGTH = 2, 24
# The schema's pattern: a superset of the rule that a regular expression can say (no control
# characters, something other than white space); ``NAME_RULE`` says the rest.
LOOSE_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"
NAME_FORMAT = "precis-nickname"

_NICKNAME = get_profile("NicknameCasePreserved")
_NICKNAME_COMPARED = get_profile("NicknameCaseMapped")
_BLANK = "\u2800"
# At most this many combining marks on one character (Vietnamese stacks two, Indic scripts
# up to three); "Z" under 23 strokes (U+0336) draws over the names around it.
MAX_MARKS = 3
_VIRAMA = 9  # the canonical combining class of a virama
_JOINERS = str.maketrans("", "", "\u200c\u200d")
_GUEST_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


def name_rule(subject: str, min_length: int, max_length: int) -> str:
    """The rule, said in a sentence, for a name of ``min_length`` to ``max_length``."""
    return (
        f"{subject} has {min_length} to {max_length} characters of any script (letters, marks, "
        "digits, symbols, punctuation, spaces) and follows the PRECIS Nickname profile (RFC "
        "8266): no control, invisible (U+2800 BRAILLE PATTERN BLANK included), formatting or "
        "unassigned characters; zero-width "
        "(non-)joiners only where the script needs them. Spaces at the ends are trimmed, runs "
        "of spaces become one and compatibility forms are normalised (NFKC)."
    )


NAME_RULE = name_rule("A name", MIN_LENGTH, MAX_LENGTH)


class InvalidName(ValueError):
    pass


def _character(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, '(unnamed)')}"


def clean_text(raw: object, *, subject: str, min_length: int, max_length: int) -> str:
    """``raw`` as the Nickname profile enforces it, if it is a valid name of ``min_length`` to
    ``max_length`` characters (before and after enforcing); raises ``InvalidName`` saying why
    not, naming it ``subject`` ("A name", "A league's name")."""
    if not isinstance(raw, str):
        raise InvalidName(f"{subject} is text.")
    length_rule = f"{subject} has {min_length} to {max_length} characters."
    if not min_length <= len(raw) <= max_length:
        raise InvalidName(length_rule)
    try:
        name = _NICKNAME.enforce(raw)
    except UnicodeEncodeError as error:
        raise InvalidName(_refusal(subject, raw, error)) from None
    if _BLANK in name:
        raise InvalidName(f"{subject} may not contain {_character(_BLANK)}: it draws nothing.")
    if _longest_mark_run(name) > MAX_MARKS:
        raise InvalidName(f"{subject} may stack at most {MAX_MARKS} combining marks on one "
                          "character: more draw over the names around it.")
    if not min_length <= len(name) <= max_length:
        raise InvalidName(f"{length_rule} Once normalised, {name!r} has {len(name)}.")
    return name


def _longest_mark_run(text: str) -> int:
    """The most combining marks (of a nonzero combining class, decomposed) in a row."""
    longest = run = 0
    for char in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.combining(char) else 0
        longest = max(longest, run)
    return longest


def _marks_folded(text: str) -> str:
    """``text`` decomposed, without its combining marks: "Smith" and "Smith\u0301" alike.
    Viramas (combining class 9) stay: in Indic scripts they make a conjunct of two letters,
    which is another name, not an accent on one."""
    return "".join(char for char in unicodedata.normalize("NFD", text)
                   if unicodedata.combining(char) in (0, _VIRAMA))


def _refusal(subject: str, raw: str, error: UnicodeEncodeError) -> str:
    reason = error.reason.removeprefix("DISALLOWED/")
    if reason == "empty":
        return f"{subject} may not be only spaces."
    # The profile reports a character of the normalised text: name the one that was sent.
    found = error.object[error.start]
    char = next((c for c in raw if found in unicodedata.normalize("NFKC", c)), found)
    if reason in ("zero_width_joiner", "zero_width_nonjoiner"):
        return (f"{subject} may contain {_character(char)} only where its script needs it: "
                "after a virama, or between letters that join.")
    if reason == "unassigned":
        return f"{subject} may not contain {_character(char)}: it is not an assigned character."
    return (f"{subject} may not contain {_character(char)}: control, invisible and formatting "
            "characters could disguise it.")


def clean_name(raw: object) -> str:
    """The display name, if it follows the rule; raises ``InvalidName`` saying why not."""
    return clean_text(raw, subject="A name", min_length=MIN_LENGTH, max_length=MAX_LENGTH)


def name_key(name: str) -> str:
    """Two names with the same key are the same name: case, spacing, joiners, compatibility
    forms and look-alike characters aside. ``name`` follows the rule (``clean_name``)."""
    compared = _marks_folded(
        "".join(_NICKNAME_COMPARED.enforce(name).split()).translate(_JOINERS))
    # Twice, lower-casing between: a prototype may be a capital ("0" becomes "O"), and "B0B"
    # is as much "bob" as "BOB" is.
    return skeleton(skeleton(compared).lower())


def numbered_names(name: str, count: int) -> list[str]:
    """``count`` variants of ``name`` (a valid one) to offer when it is taken: "Ada 2",
    "Ada 3", ...; the name is cut at its end where a number would make it too long. Each
    follows the rule; whether one is free is the caller's to find out (their keys)."""
    variants = []
    for number in range(2, 2 + count):
        suffix = f" {number}"
        base = name[: MAX_LENGTH - len(suffix)].rstrip()
        try:
            variants.append(clean_name(base + suffix))
        except InvalidName:  # a cut that left only an unpaired joiner, say
            continue
    return variants


def guest_name() -> str:
    return "Player " + "".join(secrets.choice(_GUEST_ALPHABET) for _ in range(6))
