"""The calendar every game's dailies share (``calendar``): which dates are current somewhere on
Earth, when a date opens and closes, and its number. Imports no game."""
