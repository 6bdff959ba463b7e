"""``make load``: the daily rush against a real server on this machine, then the audit.

Creates a fresh PostgreSQL database, migrates it, starts gunicorn on a free loopback port with
Redis as the cache, runs locust headless (``loadtest/locustfile.py``), then checks in the
database that every acknowledged move is stored exactly once, that every game replays to its
stored state and that no response named a card the player had not drawn. Prints moves/s,
latency percentiles per endpoint and /healthz, errors, and the CPU every party used; exits 1 on
any violation.

``LOAD_GAME`` picks the load: ``foursquare`` (the daily rush above), ``spite-malice`` (pairs
of people in friend matches, each holding the match's WebSocket, and players against the bot:
``loadtest/sm_locustfile.py``, audited by ``loadtest/verify_sm.py``), ``races`` (teams racing
Foursquare deals, each racer holding its race's socket: ``loadtest/race_locustfile.py``,
audited by ``loadtest/verify_races.py``), ``both`` (Foursquare's run, then Spite & Malice's,
as before races were served) or ``all`` (the default: the three, in that order, each on a
fresh database and server, so Foursquare's figures stay comparable with earlier runs). A
comma-separated list picks any of them, in its order.

Environment (all optional):
    LOAD_GAME=all                       foursquare | spite-malice | races | both | all | a list
    LOAD_USERS=50  LOAD_SECONDS=60      virtual players (Foursquare), and how long each load
                                        plays; Spite & Malice's players: LOAD_SM_FRIENDS=80
                                        LOAD_SM_BOTS=20 (sm_locustfile.py lists its others);
                                        races: LOAD_RACES=25 teams of LOAD_RACE_SIZE=4
                                        (race_locustfile.py lists its others)
    LOAD_RACE_COUNTDOWN=                a race's countdown in seconds (the server's
                                        RACE_COUNTDOWN_SECONDS); empty: the server's default
    LOAD_PACE=10                        moves a second each player aims at; 0: flat out
    LOAD_THINK=  LOAD_SM_THINK=         the paced mix instead: 1-3, a pause of 1 to 3 s before
                                        each move (action); the report prints the load offered
                                        beside the one served (loadtest.think)
    LOAD_SPAWN_RATE=                    players started a second (default: all in the first),
                                        so that a paced mix's players arrive over time; the
                                        figures "after the start burst" leave out the first
                                        LOAD_WARMUP_SECONDS=10
    LOAD_APP=asgi                       asgi: the ASGI app under uvicorn workers (as served);
                                        wsgi: the WSGI app under LOAD_WORKER_CLASS, for comparison
    LOAD_WORKERS=3 LOAD_WORKER_CLASS=gthread LOAD_THREADS=2   gunicorn's process model
    LOAD_SERVER=gunicorn                gunicorn: as served (gunicorn.conf.py's master and
                                        workers); granian or uvicorn: that server alone with
                                        LOAD_WORKERS processes serving server.asgi (granian:
                                        server.wsgi too, with LOAD_APP=wsgi), to compare
                                        (docs/OPERATIONS.md, "The serving stack, measured")
    LOAD_BACKGROUND=worker              worker: the jobs (a race's bot reference, ...) run in
                                        one `manage.py run_jobs` process beside the app
                                        (FOURSQUARE_BACKGROUND=off), as production runs them;
                                        its CPU is reported as "jobs"; thread: in a thread of
                                        each app process, as under `make run`
    LOAD_LOCUST_PROCESSES=1             locust processes generating the load (the races'
                                        load is always one: a race's racers share its clock)
    LOAD_POSTGRES=postgres://postgres@127.0.0.1:5432   server; the database is foursquare_load
    LOAD_REDIS_URL=redis://127.0.0.1:6379/0   ("" for no Redis: a per-process memory cache)
    LOAD_KEEP=1                          keep the database afterwards (for backups, inspection)
    LOAD_PREPARE_BUDGET=1                the solver's seconds a deal when the coming dailies are
                                        prepared before the play (``prepare_dailies --horizon``)
    LOAD_TOPOLOGY=single                 single: the server above; cluster: `make cluster`'s
                                        topology, started afresh for each load and played
                                        through HAProxy (loadtest/cluster_load.py)
    LOAD_ROUNDS=1                        play the loads this many times, one after another;
                                        with both games, a table of the rounds' CPU per move
                                        and per action, their ratios, the medians and how
                                        often each goal held (in a row at most)
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import psycopg

from loadtest import bot_times, server_times
from loadtest.choice import games_of, rounds_of
from loadtest.think import offered_per_second, think_range
from loadtest.verify import print_ratios, print_rounds

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

# The load is 50 players at ~10 moves/s each from one address: production's limits would stop
# it. These keep every request going through the limiter (with Redis) without refusing any.
LOAD_RATES = {
    "FOURSQUARE_RATE_PLAYERS_ADDRESS": "100000/hour",
    "FOURSQUARE_RATE_GAMES_TOKEN": "100000/min",
    "FOURSQUARE_RATE_GAMES_ADDRESS": "100000/min",
    "FOURSQUARE_RATE_MOVES_TOKEN": "100000/min",
    "FOURSQUARE_RATE_MOVES_ADDRESS": "1000000/min",
    # Every player reads the boards after each game, all from this one address.
    "FOURSQUARE_RATE_BOARDS_TOKEN": "100000/min",
    "FOURSQUARE_RATE_BOARDS_ADDRESS": "1000000/min",
    # The Spite & Malice players' sockets, all from this one address.
    "FOURSQUARE_RATE_SOCKETS_ADDRESS": "100000/min",
    "FOURSQUARE_LIVE_SOCKETS_PER_ADDRESS": "100000",
    "FOURSQUARE_LIVE_UNAUTHENTICATED_PER_ADDRESS": "100000",
}
LOCUSTFILES = {"foursquare": "locustfile.py", "spite-malice": "sm_locustfile.py",
               "races": "race_locustfile.py"}
JOURNALS = {"foursquare": "journal-*.json", "spite-malice": "sm-journal-*.json",
            "races": "race-journal-*.json"}
AUDITS = {"foursquare": "loadtest.verify", "spite-malice": "loadtest.verify_sm",
          "races": "loadtest.verify_races"}


def env(name: str, default: str) -> str:
    return os.environ.get(name, default).strip()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
        except psutil.NoSuchProcess:
            pass
    return total


def tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def postgres_processes() -> list[psutil.Process]:
    return [p for p in psutil.process_iter(["name", "username"])
            if p.info["username"] == "postgres" and (p.info["name"] or "").startswith("postgres")]


def postgres_backends(database: str) -> list[psutil.Process]:
    """The backends serving ``database`` (their title names it): PostgreSQL's CPU for this load
    alone when other databases on the server are busy (the WAL writer and checkpointer aside)."""
    backends = []
    for process in postgres_processes():
        try:
            if f" {database} " in " ".join(process.cmdline()) + " ":
                backends.append(process)
        except psutil.Error:
            pass
    return backends


class BackendMeter:
    """The CPU of ``database``'s backends over a run, sampled as it goes: a backend whose
    connection closes meanwhile (``CONN_MAX_AGE`` recycles them) keeps what it used until its
    last sample."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.start: dict[int, float] = {}
        self.seen: dict[int, float] = {}
        self.sample(start=True)

    def sample(self, start: bool = False) -> None:
        for process in postgres_backends(self.database):
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            self.seen[process.pid] = times.user + times.system
            if start:
                self.start[process.pid] = self.seen[process.pid]

    def used(self) -> float:
        self.sample()
        return sum(self.seen.values()) - sum(self.start.values())


def _stop(process: subprocess.Popen | None) -> None:
    """SIGTERM ``process`` (gracefully), and SIGKILL its session after 30 s."""
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@dataclass
class LoadRun:
    game: str = "foursquare"
    users: int = int(env("LOAD_USERS", "50"))
    seconds: int = int(env("LOAD_SECONDS", "60"))
    workers: int = int(env("LOAD_WORKERS", "3"))
    app: str = env("LOAD_APP", "asgi")
    worker_class: str = env("LOAD_WORKER_CLASS", "gthread")
    threads: int = int(env("LOAD_THREADS", "2"))
    server_kind: str = env("LOAD_SERVER", "gunicorn")
    locust_processes: int = int(env("LOAD_LOCUST_PROCESSES", "1"))
    background: str = env("LOAD_BACKGROUND", "worker")
    postgres: str = env("LOAD_POSTGRES", "postgres://postgres@127.0.0.1:5432")
    database: str = env("LOAD_DATABASE", "foursquare_load")
    redis_url: str = env("LOAD_REDIS_URL", "redis://127.0.0.1:6379/0")
    extra_env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="load-")))
    server: subprocess.Popen | None = None
    jobs: subprocess.Popen | None = None  # the jobs' worker (LOAD_BACKGROUND=worker)
    marks: dict[str, float] = field(default_factory=dict)
    # /metrics' token for the load's server: the report reads its histograms (read_server_figures).
    metrics_token: str = field(default_factory=lambda: secrets.token_hex(24))

    def __post_init__(self) -> None:
        if self.game == "spite-malice":
            self.users = int(env("LOAD_SM_FRIENDS", "80")) + int(env("LOAD_SM_BOTS", "20"))
        if self.game == "races":
            self.users = int(env("LOAD_RACES", "25")) * int(env("LOAD_RACE_SIZE", "4"))
            self.locust_processes = 1
            countdown = env("LOAD_RACE_COUNTDOWN", "")
            if countdown:
                self.extra_env = {"RACE_COUNTDOWN_SECONDS": countdown, **self.extra_env}

    def describe_server(self) -> str:
        app, worker = self.gunicorn_app
        jobs = "a jobs worker" if self.background == "worker" else "jobs in their threads"
        server = (f"gunicorn {self.workers} x {worker}" if self.server_kind == "gunicorn"
                  else f"{self.server_kind} alone, {self.workers} processes")
        return f"{server} serving {app}, {self.threads} thread(s), {jobs}"

    @property
    def database_url(self) -> str:
        return f"{self.postgres}/{self.database}"

    @property
    def host(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gunicorn_app(self) -> tuple[str, str]:
        """(app, worker class) for gunicorn."""
        if self.app == "asgi":
            return "server.asgi:application", "server.worker.Worker"
        if self.app == "wsgi":
            return "server.wsgi", self.worker_class
        raise SystemExit(f"LOAD_APP is asgi or wsgi, not {self.app!r}")

    def server_env(self) -> dict[str, str]:
        return {
            **os.environ, **LOAD_RATES,
            # server.asgi's HTTP threads per process (gunicorn passes --threads on itself).
            "GUNICORN_THREADS": str(self.threads),
            # The metrics' files in memory, as gunicorn.conf.py would make them, in one folder
            # for the server's processes and the jobs worker started after it (which then
            # counts in /metrics: the bot's turns, the jobs' waits). gunicorn empties it at
            # its start; the other servers' runs empty it themselves (server_command).
            "PROMETHEUS_MULTIPROC_DIR": str(self.metrics_dir),
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "REDIS_KEY_PREFIX": f"load-{os.getpid()}",
            "DJANGO_LOG_LEVEL": "WARNING",
            "FOURSQUARE_METRICS_TOKEN": self.metrics_token,
            # The levels' hourly games would run in the first seconds of the load: its own CPU.
            "SPITE_MALICE_LEVELS_PLAY": "false",
            **({"FOURSQUARE_BACKGROUND": "off"} if self.background == "worker" else {}),
            **self.extra_env,
        }

    # --- database ---

    def create_database(self) -> None:
        with psycopg.connect(f"{self.postgres}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{self.database}"')
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                       cwd=REPO, env=self.server_env(), check=True)
        self.prepare_dailies()

    def prepare_dailies(self) -> None:
        """The dailies prepared ahead, as production has them (``prepare_dailies``, run days
        ahead): on a fresh database the housekeeping would otherwise ask for the next
        FAIRNESS_DAYS_AHEAD + 1 days' preparation at the server's start, and the jobs worker
        would spend the whole run solving them (about a core of this machine's two), which no
        daily rush in production meets. The solver's budget is short (LOAD_PREPARE_BUDGET
        seconds a deal): a load needs the days prepared, not their proofs optimal."""
        started = time.monotonic()
        done = subprocess.run([sys.executable, "manage.py", "prepare_dailies", "--horizon",
                               "--time-budget", env("LOAD_PREPARE_BUDGET", "1")],
                              cwd=REPO, env=self.server_env(), capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"prepare_dailies failed:\n{done.stdout}{done.stderr}")
        print(f"dailies prepared ahead in {time.monotonic() - started:.1f} s", flush=True)

    # --- server ---

    @property
    def metrics_dir(self) -> Path:
        shm = Path("/dev/shm")
        folder = (shm if shm.is_dir() else self.workdir) / f"load-metrics-{os.getpid()}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def server_command(self) -> list[str]:
        if self.server_kind == "gunicorn":
            return [
                str(BIN / "gunicorn"), self.gunicorn_app[0], "--bind", f"127.0.0.1:{self.port}",
                "--workers", str(self.workers), "--worker-class", self.gunicorn_app[1],
                # No access log: gunicorn.conf.py serves without one (the app logs each
                # request itself), and a second line a request cost the workers 3% of their
                # time under this load (py-spy, 2026-12-04).
                "--threads", str(self.threads),
            ]
        for stale in self.metrics_dir.glob("*.db"):  # an earlier game's server
            stale.unlink()
        if self.server_kind == "granian" and self.app == "wsgi":
            # Granian's own threads call the WSGI app (HTTP only, no sockets).
            return [
                str(BIN / "granian"), "--interface", "wsgi", "--host", "127.0.0.1",
                "--port", str(self.port), "--workers", str(self.workers),
                "--blocking-threads", str(self.threads), "--runtime-threads", "1",
                "--http", "1", "--log-level", "warning", "server.wsgi:application",
            ]
        if self.app != "asgi":
            raise SystemExit("LOAD_APP=wsgi is served by gunicorn or granian")
        # As server.worker sets uvicorn up under gunicorn; each process's clock thread (a
        # heartbeat commit every 2 s, gunicorn.conf.py's post_worker_init) is left out.
        if self.server_kind == "uvicorn":
            return [
                str(BIN / "uvicorn"), "server.asgi:application", "--host", "127.0.0.1",
                "--port", str(self.port), "--workers", str(self.workers), "--loop", "uvloop",
                "--http", "httptools", "--ws", "server.worker:WebSocketProtocol",
                "--lifespan", "off", "--no-proxy-headers", "--no-server-header",
                "--no-access-log", "--timeout-keep-alive", "75", "--log-level", "warning",
            ]
        if self.server_kind == "granian":
            return [
                str(BIN / "granian"), "--interface", "asginl", "--host", "127.0.0.1",
                "--port", str(self.port), "--workers", str(self.workers), "--loop", "uvloop",
                "--ws", "--http", "1", "--log-level", "warning",
                "--http1-keep-alive", "--runtime-threads", "1",
                "server.asgi:application",
            ]
        raise SystemExit(f"LOAD_SERVER is gunicorn, granian or uvicorn, not {self.server_kind!r}")

    def start_server(self) -> None:
        log = open(self.workdir / "gunicorn.log", "ab")  # noqa: SIM115 - closed with the process
        command = self.server_command()
        self.server = subprocess.Popen(command, cwd=REPO, env=self.server_env(), stdout=log,
                                       stderr=log, start_new_session=True)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.host}/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if self.server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{self.server_kind} did not start: "
                                   f"see {self.workdir}/gunicorn.log")
            time.sleep(0.2)

    def start_jobs(self) -> None:
        """The jobs' worker beside the app, as production runs it (LOAD_BACKGROUND=worker)."""
        if self.background == "thread":
            return
        if self.background != "worker":
            raise SystemExit(f"LOAD_BACKGROUND is thread or worker, not {self.background!r}")
        log = open(self.workdir / "jobs.log", "ab")  # noqa: SIM115 - closed with the process
        self.jobs = subprocess.Popen([sys.executable, "manage.py", "run_jobs"], cwd=REPO,
                                     env=self.server_env(), stdout=log, stderr=log,
                                     start_new_session=True)

    def worker_pids(self) -> list[int]:
        return [child.pid for child in tree(self.server.pid)[1:]] if self.server else []

    def stop_server(self) -> None:
        _stop(self.jobs)
        _stop(self.server)

    # --- load ---

    def start_locust(self, seconds: int | None = None) -> subprocess.Popen:
        journal_dir = self.workdir / "journal"
        journal_dir.mkdir(exist_ok=True)
        command = [
            str(BIN / "locust"), "-f", str(REPO / "loadtest" / LOCUSTFILES[self.game]),
            "--headless",
            "-u", str(self.users), "-r", env("LOAD_SPAWN_RATE", "") or str(self.users),
            "-t", f"{seconds or self.seconds}s",
            "--stop-timeout", "30", "--host", self.host, "--only-summary",
            "--loglevel", "WARNING", "--exit-code-on-error", "0",
        ]
        if self.locust_processes > 1:
            command += ["--processes", str(self.locust_processes)]
        log = open(self.workdir / "locust.log", "ab")  # noqa: SIM115 - closed with the process
        return subprocess.Popen(command, cwd=REPO, stdout=log, stderr=log,
                                env={**os.environ, "LOAD_OUTPUT_DIR": str(journal_dir)})

    def journals(self) -> list[dict]:
        return [json.loads(path.read_text())
                for path in sorted((self.workdir / "journal").glob(JOURNALS[self.game]))]

    def run(self, seconds: int | None = None, during=None) -> dict:
        """Play for ``seconds``; ``during(self)`` runs meanwhile (a fault drill). Returns the
        machine figures."""
        route_cpu_before = self.read_route_cpu()
        load_before = os.getloadavg()
        parties = self.parties()
        before = {name: cpu_seconds(find()) for name, find in parties.items()}
        backends = self.backend_meter()
        self.measure_start()
        started = time.time()
        locust = self.start_locust(seconds)
        if during is not None:
            during(self)
        locust_cpu = 0.0
        while locust.poll() is None:
            locust_cpu = max(locust_cpu, cpu_seconds(tree(locust.pid)))
            if backends is not None:
                backends.sample()
            self.measure_sample()
            time.sleep(0.5)
        wall = time.time() - started
        after = {name: cpu_seconds(find()) for name, find in parties.items()}
        return {
            **self.read_server_figures(),
            "route_cpu_before": route_cpu_before,
            "wall_seconds": wall,
            "loadavg_before": load_before,
            "loadavg_after": os.getloadavg(),
            "cpu_seconds": {"locust": locust_cpu,
                            **{name: after[name] - before[name] for name in parties},
                            **({"postgres (this database)": backends.used()}
                               if backends is not None else {})},
            "marks": dict(self.marks),
            **self.measure_end(),
        }

    @property
    def app_party(self) -> str:
        """The app server's processes' name in the CPU figures."""
        return "gunicorn" if self.server_kind == "gunicorn" else "app"

    def parties(self) -> dict:
        """The processes whose CPU the report shows, by name: how to find each one's now."""
        parties = {self.app_party: lambda: tree(self.server.pid), "postgres": postgres_processes}
        if self.jobs is not None:
            parties["jobs"] = lambda: tree(self.jobs.pid)
        return parties

    def read_route_cpu(self) -> dict | None:
        """The routes' CPU so far (``loadtest.server_times.route_cpu``), read before the play
        and its CPU figures so that it costs them nothing; None when /metrics is not read."""
        exposition = server_times.scrape(self.host, self.metrics_token)
        return server_times.route_cpu(exposition) if exposition else None

    def read_server_figures(self) -> dict:
        """From one scrape of the server's ``/metrics``, read after the play and its CPU
        figures so that it costs them nothing: the server's own time for each busy route
        (``loadtest.server_times``) and the house bot's CPU a turn (``loadtest.bot_times``)."""
        exposition = server_times.scrape(self.host, self.metrics_token)
        if not exposition:
            return {}
        return {"server_times": server_times.route_times(exposition),
                "route_cpu": server_times.route_cpu(exposition),
                "bot_turns": bot_times.bot_turns(exposition),
                "bot_job_wait": bot_times.bot_job_wait(exposition)}

    def backend_meter(self) -> BackendMeter | None:
        return BackendMeter(self.database)

    # A topology's own figures, taken at the start, every half second and at the end of the
    # play (the cluster's: loadtest.cluster_load); the end's go into the machine figures.
    def measure_start(self) -> None:
        pass

    def measure_sample(self) -> None:
        pass

    def measure_end(self) -> dict:
        return {}

    def play_and_audit(self, during=None, failures_allowed: bool = False) -> tuple[dict, dict]:
        """A fresh database and server, the load (with ``during``), then the audit."""
        audit = importlib.import_module(AUDITS[self.game]).audit
        self.create_database()
        self.start_server()
        self.start_jobs()
        machine = self.run(during=during)
        self.stop_server()
        return machine, audit(self.journals(), self.database_url,
                              failures_allowed=failures_allowed)

    def print_topology(self, report: dict, machine: dict) -> bool:
        """What the topology adds to the game's report (the cluster's nodes, pools, replica,
        Prometheus's figures); False when its own checks fail (Prometheus disagrees)."""
        return True

    def cleanup(self, keep: bool) -> None:
        self.stop_server()
        shutil.rmtree(self.metrics_dir, ignore_errors=True)
        if not keep:
            with psycopg.connect(f"{self.postgres}/postgres", autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            shutil.rmtree(self.workdir, ignore_errors=True)


def load_run(**fields) -> LoadRun:
    """The load's runner for ``LOAD_TOPOLOGY``: ``single`` (one gunicorn, as before) or
    ``cluster`` (loadtest.cluster_load: through HAProxy in front of ``make cluster``'s parts)."""
    topology = env("LOAD_TOPOLOGY", "single")
    if topology == "cluster":
        from loadtest.cluster_load import ClusterLoadRun

        return ClusterLoadRun(**fields)
    if topology != "single":
        raise SystemExit(f"LOAD_TOPOLOGY is single or cluster, not {topology!r}")
    return LoadRun(**fields)


def play(game: str, keep: bool) -> tuple[bool, dict | None]:
    """One game's load and audit, reported: whether the audit is clean, and what a unit of
    its work cost (``verify.cost``)."""
    load = load_run(game=game)
    if game == "foursquare":
        what = f"{load.users} players at {env('LOAD_PACE', '10')} moves/s each"
    elif game == "races":
        what = (f"Foursquare races, {env('LOAD_RACES', '25')} teams of "
                f"{env('LOAD_RACE_SIZE', '4')} at {env('LOAD_RACE_PACE', '2')} moves/s each")
    else:
        what = (f"Spite & Malice, {env('LOAD_SM_FRIENDS', '80')} players in friend matches and "
                f"{env('LOAD_SM_BOTS', '20')} against the bot")
    print(f"load: {what} for {load.seconds}s against {load.describe_server()} on {load.host}, "
          f"database {load.database}, cache {load.redis_url or 'per-process memory'}",
          flush=True)
    ok, spent = False, None
    unit = "action" if game == "spite-malice" else "move"  # races count moves too
    try:
        machine, report = load.play_and_audit()
        spent = importlib.import_module(AUDITS[game]).print_report(report, machine, load)
        if spent:
            print(f"CPU per {unit}, all in (app + this database's PostgreSQL): "
                  f"{spent['cpu_ms']:.2f} ms at {spent['rate']:.1f} {unit}s/s")
        for line in server_times.report_lines(machine.get("server_times", [])):
            print(line)
        for line in server_times.cpu_lines(
                machine.get("route_cpu_before"), machine.get("route_cpu"),
                machine.get("cpu_seconds", {}).get(load.app_party), (spent or {}).get("units", 0),
                unit):
            print(line)
        for line in bot_times.report_lines(machine.get("bot_turns", []),
                                           machine.get("bot_job_wait")):
            print(line)
        print_offered(game, load, spent)
        agree = load.print_topology(report, machine)
        ok = report["ok"] and agree
    finally:
        load.cleanup(keep=keep or not ok)
    if keep or not ok:
        print(f"kept database {load.database} and logs in {load.workdir}")
    return ok, spent


def print_offered(game: str, load: LoadRun, spent: dict | None) -> None:
    """The paced mix's offered load beside the served one (``loadtest.think``)."""
    variable = {"foursquare": "LOAD_THINK", "spite-malice": "LOAD_SM_THINK"}.get(game)
    think = think_range(variable) if variable else None
    if think is None or not spent:
        return
    if game == "foursquare":
        acting, unit = load.users, "moves"
    else:  # one seat of each friend match at a time, and every player against the bot
        acting, unit = (int(env("LOAD_SM_FRIENDS", "80")) / 2 + int(env("LOAD_SM_BOTS", "20")),
                        "actions")
    offered = offered_per_second(acting, think)
    print(f"paced: {acting:g} players acting, thinking {think[0]:g}-{think[1]:g} s: offered at "
          f"most {offered:.1f} {unit}/s, served {spent['rate']:.1f} "
          f"({spent['rate'] / offered:.0%} of offered)")


def main() -> int:
    games = games_of(env("LOAD_GAME", "all"))
    keep = env("LOAD_KEEP", "") not in ("", "0")
    rounds = rounds_of(env("LOAD_ROUNDS", "1"))
    clean = True
    compared: list[tuple[dict, dict]] = []
    pair = ("foursquare", "spite-malice")
    for _ in range(rounds):
        results = dict(zip(games, (play(game, keep) for game in games), strict=True))
        clean = clean and all(ok for ok, _ in results.values())
        spent = {game: cost for game, (_, cost) in results.items()}
        if all(spent.get(game) for game in pair) and spent["foursquare"]["rate"]:
            print_ratios(spent["foursquare"], spent["spite-malice"])
            compared.append((spent["foursquare"], spent["spite-malice"]))
    if len(compared) > 1:
        print_rounds(compared)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
