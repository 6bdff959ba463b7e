"""``engine.rebuild`` starts from the position this process kept for a game only when it follows
exactly the stored actions; otherwise it replays them from the seed."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.db import connection

from server.spitemalice import engine, services
from server.spitemalice.models import Match, MatchGame
from spitemalice import Game
from tests.server.spitemalice.support import act, greedy

SEED = bytes(range(16))


def played(count: int) -> Game:
    """The game after ``count`` actions, each the first legal one (a fixed line of play)."""
    game = Game(SEED)
    for _ in range(count):
        game.play(game.legal_actions()[0])
    return game


def stored(game: Game) -> MatchGame:
    return MatchGame(seed=SEED.hex(), actions=[list(action) for action in game.actions])


def test_a_kept_position_is_copied_not_replayed_and_not_shared():
    game = played(12)
    engine.position_keep(game)
    with mock.patch.object(engine, "Game", wraps=Game) as dealt:
        again = engine.rebuild(stored(game))
    assert dealt.call_count == 0  # no new deal: the kept position was used
    assert again.position() == game.position() and again.actions == game.actions
    again.play(again.legal_actions()[0])  # playing the copy leaves the kept one as it was
    assert engine.rebuild(stored(game)).position() == game.position()


def test_a_position_for_other_actions_is_never_used():
    line = played(12)
    engine.position_keep(line)
    other = Game(SEED)  # the same game, but another action at the end (a write that lost a race)
    for action in line.actions[:-1]:
        other.play(action)
    choices = [action for action in other.legal_actions() if action != line.actions[-1]]
    other.play(choices[0])
    rebuilt = engine.rebuild(stored(other))
    assert rebuilt.actions == other.actions and rebuilt.position() == other.position()
    assert rebuilt.position() != line.position()


def test_only_the_latest_positions_are_kept(monkeypatch):
    monkeypatch.setattr(engine, "_positions", type(engine._positions)())
    monkeypatch.setattr(engine, "POSITIONS_KEPT", 1)
    engine.position_keep(played(3))
    engine.position_keep(Game(bytes(16)))
    with mock.patch.object(engine, "Game", wraps=Game) as dealt:
        engine.rebuild(stored(played(3)))
    assert dealt.call_count == 1 and len(engine._positions) == 1


def test_the_text_stored_for_a_kept_position_is_not_decoded_again():
    game = played(12)
    kept = [list(action) for action in game.actions]
    engine.position_keep(game, kept)
    text = json.dumps(kept)
    assert engine.actions_decoded(SEED.hex(), text) == kept  # no text noted yet: decoded
    assert engine.actions_decoded(SEED.hex(), text) is not kept
    engine.position_stored(SEED.hex(), kept, text)
    assert engine.actions_decoded(SEED.hex(), text) is kept
    # Other text (another action at the end, or the same actions spelt otherwise) is decoded.
    assert engine.actions_decoded(SEED.hex(), json.dumps(kept[:-1])) == kept[:-1]
    spelt_otherwise = json.dumps(kept, separators=(",", ":"))
    assert engine.actions_decoded(SEED.hex(), spelt_otherwise) is not kept
    # A text noted for a list the kept position no longer follows is not noted.
    engine.position_keep(played(13))
    engine.position_stored(SEED.hex(), kept, text)
    assert engine.actions_decoded(SEED.hex(), text) is not kept


@pytest.mark.postgresql  # the action fast path's statements
def test_an_action_on_the_fast_path_reads_back_the_list_it_stored(make_player):
    """The text PostgreSQL prints for the stored actions is the text the fast path wrote, so
    the next action's read reuses the list in hand rather than decoding it."""
    host, host_api = make_player("Host")
    guest, guest_api = make_player("Guest")
    match_id = services.match_start_friend(player=host, opponent=guest, target=50).pk
    apis = {0: host_api, 1: guest_api}
    game = MatchGame.objects.get(match_id=match_id, number=1)
    # Whatever the deal, an action whose answer the fast path wrote comes within a few (a
    # token's first use goes the full way). Every answer keeps its position again, without a
    # text; only the fast path notes the text it stored.
    for _ in range(10):
        seat = Match.objects.get(pk=match_id).turn
        match = apis[seat].get(f"spite-malice/matches/{match_id}").json()
        assert act(apis[seat], match, greedy(match["game"])).status_code == 200
        kept = engine._positions[game.seed]
        if kept[2] is not None:
            break
    else:
        raise AssertionError("no action of ten was stored by the fast path")
    game.refresh_from_db()
    with connection.cursor() as cursor:
        cursor.execute("SELECT actions::text FROM spitemalice_matchgame WHERE id = %s",
                       [game.pk])
        (text,) = cursor.fetchone()
    assert kept[2] == text and engine.actions_decoded(game.seed, text) is kept[0]
    assert kept[0] == game.actions
