"""The Spite & Malice API, under /api/v1/spite-malice/: matches against the bot and between
people (invitations, joining, cancelling, rematches), the daily, actions, the event feed,
records, hints and the daily's board. One module per resource, each view with its schema text
(``urls.py`` names them all):

- ``matches``: the list, starting a match (against the bot, a person, or the daily), one match,
  resigning and cancelling;
- ``play``: actions (their fast path is ``server.spitemalice.fastaction``), the event feed
  and hints;
- ``invitations``: joining by code, an invitation's preview, accepting and declining a
  challenge, offering a rematch;
- ``seeks``: open seeks, posted, listed, withdrawn and taken;
- ``records``: a finished game's record and the seeds behind a match (docs/FAIRNESS.md);
- ``daily``: the day's daily and its leaderboard; ``ratings``: the ratings board;
- ``bots``: the house bot's levels and the bot accounts online;
- ``common``: what they share (the match as its player sees it, reading and writing a match).

Every read of a match and every write on one first applies what its clock says (a turn past
its deadline is lost; an invitation past its days expires: ``clocks``)."""
