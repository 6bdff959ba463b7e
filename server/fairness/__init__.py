"""The fairness log: commitments to every deal before it is played, in an append-only chain of
entries signed with the server's Ed25519 key (docs/FAIRNESS.md). Each game registers its
dailies (``games.register``); matches and races commit through ``services``. Imports no game."""
