"""The engine's two kinds of error, both ``ValueError`` subclasses.

``ParseError`` means "this text is not a card, deck or record"; ``IllegalMoveError`` means
"this is well-formed but not legal now". Messages quote the offending input.
"""


class ParseError(ValueError):
    """Input that cannot be read as a card, deck, position or record."""


class IllegalMoveError(ValueError):
    """A placement that the rules do not allow in the current position."""
