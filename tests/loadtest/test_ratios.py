"""make load's comparison of the two games: what a unit of work costs (app and this database's
PostgreSQL, per move or per acknowledged action) and the ratios printed for LOAD_GAME=both,
a round at a time and, with LOAD_ROUNDS, over the rounds."""

from loadtest.verify import cost, print_ratios, print_rounds


def test_a_units_cost_is_the_app_and_its_databases_cpu_per_unit():
    machine = {"cpu_seconds": {"locust": 9.0, "gunicorn": 3.0, "postgres": 5.0,
                               "postgres (this database)": 1.0}}
    # The units ride along, for the report's split of the app's CPU a unit.
    assert cost(machine, 1000, 250.0) == {"cpu_ms": 4.0, "rate": 250.0, "units": 1000}


def test_both_games_print_their_ratios(capsys):
    print_ratios({"cpu_ms": 4.0, "rate": 300.0}, {"cpu_ms": 5.0, "rate": 240.0})
    printed = capsys.readouterr().out
    assert "per action 5.0 ms / per move 4.0 ms = 1.25x" in printed
    assert "actions/s 240.0 / moves/s 300.0 = 0.80x" in printed


def test_the_rounds_table_counts_the_goals_and_the_longest_run_of_them(capsys):
    rounds = [({"cpu_ms": move, "rate": 300.0}, {"cpu_ms": action, "rate": 240.0})
              for move, action in [(3.0, 3.6), (4.0, 4.8), (3.2, 4.8), (3.4, 4.0), (3.5, 4.2)]]
    print_rounds(rounds)
    printed = capsys.readouterr().out.splitlines()
    assert "== 5 rounds, each Foursquare's run then Spite & Malice's" in printed
    assert printed[4].split() == ["2", "4.00", "ms", "4.80", "ms", "1.20x"]
    assert printed[5].split() == ["3", "3.20", "ms", "4.80", "ms", "1.50x"]
    # The medians: moves 3.4, actions 4.2, ratios (1.2, 1.2, 1.5, 1.18, 1.2) 1.2.
    assert printed[8].split() == ["median", "3.40", "ms", "4.20", "ms", "1.20x"]
    # Moves at most 3.5 ms: rounds 1, 3, 4 and 5 (three in a row). Ratios at most 1.3: all
    # but round 3 (two in a row).
    assert printed[9] == "a move <= 3.5 ms: 4 of 5 rounds, at most 3 in a row"
    assert printed[10] == "an action <= 1.3x a move's: 4 of 5 rounds, at most 2 in a row"
