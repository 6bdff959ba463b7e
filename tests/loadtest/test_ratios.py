"""make load's comparison of the two games: what a unit of work costs (app and this database's
PostgreSQL, per move or per acknowledged action) and the ratios printed for LOAD_GAME=both."""

from loadtest.verify import cost, print_ratios


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
