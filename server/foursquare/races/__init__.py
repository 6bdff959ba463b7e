"""Foursquare races: friends play one fresh deal at the same time, each in a game of their own,
seeing the others' progress (counts only) until their own game is over (issue #24)."""
