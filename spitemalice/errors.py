"""The engine's two kinds of error, both ``ValueError`` subclasses.

``ParseError`` means "this text is not a card, action or record"; ``IllegalActionError`` means
"this is well-formed but not legal now". Messages quote the offending input.
"""


class ParseError(ValueError):
    """Input that cannot be read as a card, action, position or record."""


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the current position."""
