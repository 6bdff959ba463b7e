"""The account stream: each player's numbered events across every match of every game."""
