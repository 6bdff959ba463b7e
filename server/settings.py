"""Settings for Foursquare Daily, all in one place and all read from the environment (12-factor).

The defaults run locally with nothing to configure: SQLite under data/, DEBUG off, localhost only.
Production (DJANGO_ENV=production, the default as soon as DJANGO_ALLOWED_HOSTS names a host other
than localhost) turns on HTTPS-only cookies, HSTS and the HTTPS redirect, and refuses to start
without its own DJANGO_SECRET_KEY, FOURSQUARE_DAILY_SECRET and SPITE_MALICE_DAILY_SECRET or with
DEBUG on. docs/OPERATIONS.md explains each variable in context.

Environment variables:
    DJANGO_ENV               development or production (see above)
    DJANGO_SECRET_KEY        secret key; unset (not in production), one made at random on first
                             start and kept in the data dir (server.local_secrets)
    DJANGO_DEBUG             true/false, default false
    DJANGO_ALLOWED_HOSTS     comma-separated, default localhost,127.0.0.1,[::1]
    DJANGO_CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://foursquare.example
    DJANGO_NUM_PROXIES       proxies in front of the app that append to X-Forwarded-For, default 0
    DJANGO_SECURE_SSL_REDIRECT   production: redirect http to https, default true
    DJANGO_HSTS_SECONDS      production: Strict-Transport-Security max-age, default one year
    DJANGO_HSTS_INCLUDE_SUBDOMAINS  production: HSTS covers the subdomains too, default true
    DJANGO_HSTS_PRELOAD      production: ask to be preloaded by browsers, default false
    DJANGO_LOG_LEVEL         default INFO
    DATABASE_URL             e.g. postgres://user@host:5432/name; default SQLite in the data dir
    CONN_MAX_AGE             seconds to keep database connections open, default 60
    DATABASE_CONNECT_TIMEOUT seconds to wait for PostgreSQL to accept a connection, default 2
    DATABASE_HEALTH_CHECKS   true/false, default false: test a kept connection before each request
    DATABASE_PREPARED_STATEMENTS  true/false, default true: false behind a pooler that cannot
                             keep them (PgBouncer in transaction mode before 1.21); false also
                             turns server-side cursors off
    DATABASE_REPLICA_URL     a streaming replica for the boards' reads, default none
                             (server.core.replicas); DATABASE_REPLICA_PIN_SECONDS (10): how long
                             a token that wrote reads the primary; DATABASE_REPLICA_RETRY_SECONDS
                             (5): how long the primary serves those reads after the replica failed
    REDIS_URL                e.g. redis://host:6379/0: the cache every worker shares (throttling);
                             default a file cache in the data dir that this machine's workers share;
                             also the live sockets' channel layer (see CHANNEL_LAYERS below)
    REDIS_KEY_PREFIX         the prefix of every cache key and channel-layer channel in Redis,
                             default foursquare: two deployments sharing one Redis each set one
    FOURSQUARE_RATE_<SCOPE>  request limits such as "240/min" or "off"; see THROTTLE_RATES below
    FOURSQUARE_IDEMPOTENCY_KEY_HOURS  how long a stored response answers retries, default 24
    FOURSQUARE_FAST_MOVES    true/false, default true: answer moves on the fast path (see below)
    FOURSQUARE_FAST_STARTS   true/false, default true: the same for a fresh practice deal
    SPITE_MALICE_FAST_ACTIONS  true/false, default true: the same for Spite & Malice's actions
    FOURSQUARE_DAILY_SECRET  deals the Foursquare dailies: production must set it; elsewhere
                             one is made on first start and kept in the data dir
    FOURSQUARE_LAUNCH_DATE   the date of daily #1, default 2026-11-01 (changing it renumbers)
    SPITE_MALICE_DAILY_SECRET  deals the Spite & Malice dailies; like FOURSQUARE_DAILY_SECRET
    FAIRNESS_SIGNING_KEY     the fairness log's Ed25519 key is SHA-256 of it (docs/FAIRNESS.md);
                             like FOURSQUARE_DAILY_SECRET. FAIRNESS_PREVIOUS_PUBLIC_KEYS: the
                             public keys it replaced; FAIRNESS_DAYS_AHEAD: dailies committed
                             ahead, default 8
    SPITE_MALICE_BOT_SECONDS the bot's time in a request before its turn goes on in the
                             background, default 2
    SPITE_MALICE_LEVELS_PLAY true/false, default true: the house bot's levels play one game
                             a pairing an hour in the background, for the bots' ratings
    FOURSQUARE_BACKGROUND    thread (default): each app process runs the background work; off:
                             `manage.py run_jobs` does
    FOURSQUARE_PREPARE_TIME_BUDGET  the solver's seconds per daily deal prepared, default 20
    RACE_COUNTDOWN_SECONDS   a race's countdown from its start to the first move, default 5
    RACE_SWEEP_SECONDS       how often each process's clock thread closes the races whose time
                             is up, default 5
    FOURSQUARE_LIVE_POLL_SECONDS  how often each live socket checks the event feed besides the
                             channel layer's notices, default 5 with Redis, 1 without
    FOURSQUARE_LIVE_FEED_CHECK_SECONDS  how often a live socket reads the feed even when the
                             cache's latest event number says nothing is new, default 60
    FOURSQUARE_LIVE_TOKEN_CHECK_SECONDS  how soon a live socket whose token was signed out or
                             revoked is closed, default 30
    FOURSQUARE_LIVE_MAX_MESSAGE_BYTES  the largest message a live socket reads, default 1024
    FOURSQUARE_LIVE_SOCKETS_PER_SEAT  open sockets one seat of a match may hold, default 6
    FOURSQUARE_LIVE_SOCKETS_PER_ADDRESS  open sockets per client address in one app process,
                             default 200; FOURSQUARE_LIVE_UNAUTHENTICATED_PER_ADDRESS: of
                             them not yet authenticated, default 20
    FOURSQUARE_STREAM_SECONDS  how long an account stream (GET /api/v1/stream) lasts before the
                             client reconnects, default 300; FOURSQUARE_STREAM_KEEPALIVE_SECONDS
                             the silence before its keep-alive, default 20;
                             FOURSQUARE_STREAM_POLL_SECONDS how often it and /ws/account compare
                             the cached latest event number with theirs (reading the table when
                             behind), default 5 with Redis, 1 without;
                             FOURSQUARE_STREAMS_PER_TOKEN the streams and account sockets one
                             token holds open in one app process, default 4;
                             FOURSQUARE_STREAMS_PER_PLAYER those one player holds across tokens
                             and processes, default 8
    FOURSQUARE_DATA_DIR      where the default SQLite database, the shared cache of the embedded
                             default and the secrets made on first start live, default <repo>/data
    FOURSQUARE_STATIC_ROOT   where `collectstatic` puts the front end's files and the server
                             serves them from, default <repo>/staticfiles
    FOURSQUARE_METRICS_TOKEN the bearer token /metrics asks for; unset, /metrics answers 404
                             (docs/OPERATIONS.md, "Metrics")
    FOURSQUARE_LOG_FORMAT    json (one JSON object a line, the default in production) or text
                             (the default elsewhere): how every log line is written
    PROMETHEUS_MULTIPROC_DIR where gunicorn's processes keep their metrics' values; default a
                             new folder for each server run (gunicorn.conf.py)
"""

import os
from datetime import date
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from server.env import env_bool, env_float, env_int, env_list
from server.local_secrets import local_secret

BASE_DIR = Path(__file__).resolve().parent.parent
FRONTEND_DIR = BASE_DIR / "frontend"

# The embedded default's files: the SQLite database, the shared cache, secrets made on first start.
DATA_DIR = Path(os.environ.get("FOURSQUARE_DATA_DIR", "").strip() or BASE_DIR / "data")

# --- Security ----------------------------------------------------------------------------------

_LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

_SECRET_KEY_FROM_ENV = os.environ.get("DJANGO_SECRET_KEY", "").strip()
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", _LOCAL_HOSTS)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "server.api.handlers.csrf_failure"

_SERVES_PUBLIC_HOSTS = bool(set(ALLOWED_HOSTS) - set(_LOCAL_HOSTS))

# Serving a public host name takes a key of its own, whatever DJANGO_ENV says: the key kept in
# one machine's data folder is not shared with the other app servers behind a public name.
if not _SECRET_KEY_FROM_ENV and _SERVES_PUBLIC_HOSTS:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set when DJANGO_ALLOWED_HOSTS names hosts other than "
        f"{', '.join(_LOCAL_HOSTS)} (got {', '.join(ALLOWED_HOSTS)})"
    )

ENVIRONMENT = (
    os.environ.get("DJANGO_ENV", "").strip().lower()
    or ("production" if _SERVES_PUBLIC_HOSTS else "development")
)
if ENVIRONMENT not in {"development", "production"}:
    raise ImproperlyConfigured(f"DJANGO_ENV must be development or production, not {ENVIRONMENT!r}")
PRODUCTION = ENVIRONMENT == "production"
# Production has its own (checked below); anywhere else one is made on first start.
SECRET_KEY = _SECRET_KEY_FROM_ENV or ("" if PRODUCTION else local_secret(DATA_DIR, "secret-key"))

if PRODUCTION:
    _missing = [
        name for name in ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "FOURSQUARE_DAILY_SECRET",
                          "SPITE_MALICE_DAILY_SECRET", "FAIRNESS_SIGNING_KEY")
        if not os.environ.get(name, "").strip()
    ]
    if _missing:
        raise ImproperlyConfigured(f"DJANGO_ENV=production needs {', '.join(_missing)}")
    if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is too weak for production: use 50 or more random characters, "
            "e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    if DEBUG:
        raise ImproperlyConfigured("DJANGO_DEBUG must be off in production: it shows settings "
                                   "and stack traces to anyone")
    # TLS ends at the load balancer, which must set X-Forwarded-Proto (overwriting any value a
    # client sent); /healthz and /metrics stay plain HTTP for the probes and scrapes inside the
    # network.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # Preloading is a promise to browsers that takes months to undo: an operator opts in
        # knowingly rather than by default, so `check --deploy` is not asked to nag about it.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

# --- Applications ------------------------------------------------------------------------------

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "server.core",
    "server.api",
    "server.jobs",
    "server.players",
    "server.foursquare",
    "server.boards",
    "server.leagues",
    "server.spitemalice",
    "server.ratings",
    "server.streams",
    "server.fairness",
]

AUTH_USER_MODEL = "players.Player"

MIDDLEWARE = [
    # Outermost: the request id for every line the request logs, its own line, its metrics.
    "server.core.requestlog.RequestObservedMiddleware",
    # Next: an error any layer below answers in HTML leaves the API as problem+json.
    "server.api.middleware.ProblemResponseMiddleware",
    # Before anything reads a body: a chunked one is read whole (Django reads Content-Length).
    "server.api.middleware.RequestBodyMiddleware",
    # A token that wrote reads its own writes: the primary for a while (server.core.replicas).
    "server.core.replicas.ReadYourWritesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Sessions, Django's users and messages, for the pages only: the API's requests pass
    # through them untouched (server.api.middleware.PagesOnly says why).
    "server.api.middleware.PagesSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "server.api.middleware.PagesAuthenticationMiddleware",
    "server.api.middleware.PagesMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "server.api.middleware.ApiErrorMiddleware",
]

ROOT_URLCONF = "server.urls"
WSGI_APPLICATION = "server.wsgi.application"
ASGI_APPLICATION = "server.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ----------------------------------------------------------------------------------

_database_url = os.environ.get("DATABASE_URL", "").strip()
if not _database_url:
    # SQLite cannot create the directory its file lives in; a fresh clone has no data/.
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    _database_url = f"sqlite:///{DATA_DIR.resolve() / 'db.sqlite3'}"


def _database(url: str) -> dict[str, Any]:
    database: dict[str, Any] = dict(dj_database_url.parse(
        url,
        conn_max_age=env_int("CONN_MAX_AGE", 60),
        conn_health_checks=env_bool("DATABASE_HEALTH_CHECKS", False),
    ))
    options = database.setdefault("OPTIONS", {})
    if database["ENGINE"] == "django.db.backends.sqlite3":
        # Two gunicorn workers write to one file: take the write lock when a transaction starts
        # (no deadlocked upgrades) and let readers carry on while one writes.
        options.setdefault("transaction_mode", "IMMEDIATE")
        options.setdefault("init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
    elif database["ENGINE"] == "django.db.backends.postgresql":
        # A database that is down should fail a request (and /healthz) quickly, not hang it.
        options.setdefault("connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 2))
        # The move's statements (server.foursquare.fastmove) are prepared: planning them cost
        # PostgreSQL four times their execution. Behind a pooler that lends a server connection
        # per transaction and keeps no prepared statements (PgBouncer in transaction mode
        # before 1.21), set DATABASE_PREPARED_STATEMENTS=false: nothing prepared, and no
        # server-side cursors (which live across transactions), as Django asks of such a pooler.
        if env_bool("DATABASE_PREPARED_STATEMENTS", True):
            options.setdefault("prepare_threshold", 5)  # psycopg's default
        else:
            options["prepare_threshold"] = None
            database["DISABLE_SERVER_SIDE_CURSORS"] = True
    return database


DATABASES = {"default": _database(_database_url)}

# A streaming replica for the reads that may lag (the boards, profiles, statistics, league and
# ratings boards): server.core.replicas routes them, keeps a player who just wrote on the
# primary for DATABASE_REPLICA_PIN_SECONDS, and falls back to the primary for
# DATABASE_REPLICA_RETRY_SECONDS when the replica fails. Tests mirror it onto the primary.
_replica_url = os.environ.get("DATABASE_REPLICA_URL", "").strip()
if _replica_url:
    DATABASES["replica"] = {**_database(_replica_url), "TEST": {"MIRROR": "default"}}
DATABASE_ROUTERS = ["server.core.replicas.ReplicaRouter"]
DATABASE_REPLICA_PIN_SECONDS = env_int("DATABASE_REPLICA_PIN_SECONDS", 10)
DATABASE_REPLICA_RETRY_SECONDS = env_int("DATABASE_REPLICA_RETRY_SECONDS", 5)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Time and language -------------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ------------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("FOURSQUARE_STATIC_ROOT", "").strip() or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [FRONTEND_DIR]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names (imports between the modules rewritten to them), compressed with gzip and
    # Brotli, served as immutable for a year; index.html is rewritten to the hashed names.
    "staticfiles": {"BACKEND": "server.core.storage.FrontendStaticFilesStorage"},
}

# --- API ---------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["server.api.parsers.StrictJSONParser"],
    # Bearer tokens only: no cookie authenticates the API, so cross-site requests carry no
    # credentials and CSRF has nothing to attack.
    "DEFAULT_AUTHENTICATION_CLASSES": ["server.players.tokens.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "server.api.problems.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "server.api.schema.ApiAutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "DEFAULT_THROTTLE_CLASSES": ["server.api.throttling.RequestRateThrottle"],
    # Only the proxies we run may name the client's address; without them X-Forwarded-For is
    # whatever the client wrote, and a client could dodge the per-address limits with it.
    "NUM_PROXIES": env_int("DJANGO_NUM_PROXIES", 0),
}

# --- Cache and throttling ----------------------------------------------------------------------

# Throttling counts requests in the cache, so the counts are shared by every worker only when the
# cache is: REDIS_URL in production, shared by every app server; without it, a file cache that the
# workers of one machine share. Redis being down
# never fails a request: throttling pauses, and says so in the log (server.api.throttling).
_redis_url = os.environ.get("REDIS_URL", "").strip()
if _redis_url:
    CACHES: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": "server.core.redis_cache.RedisCache",  # Django's, its clients kept
            "LOCATION": _redis_url,
            "KEY_PREFIX": os.environ.get("REDIS_KEY_PREFIX", "").strip() or "foursquare",
            # A Redis that is slow or gone costs a request at most this, then it goes on.
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
else:
    # The embedded default: a SQLite-backed cache in the data folder, one for every worker of
    # this machine (a memory cache would let each worker count its own, and the limits hold at
    # several times their setting). The limiter's counts are kept under its transactions, atomic
    # across processes.
    CACHES = {"default": {"BACKEND": "diskcache.DjangoCache",
                          "LOCATION": str(DATA_DIR / "cache"),
                          "TIMEOUT": 3600,
                          "OPTIONS": {"size_limit": 64 * 2**20}}}

# --- Live sockets ------------------------------------------------------------------------------

# A match's sockets hear of new events through a channel-layer group
# (server.spitemalice.live.publish). With
# Redis it is the Pub/Sub layer: a notice is one PUBLISH that every app process subscribed to the
# group receives, nothing is stored in Redis (notices are hints; the database's feed is what each
# socket reads), so there are no group memberships to expire under a socket held for days and
# none to lose when Redis restarts: a process subscribes again from what it holds. Without Redis
# (the embedded default) the in-memory layer reaches the sockets of its own process only; the
# others' sockets find the events by checking the feed every LIVE_POLL_SECONDS.
if _redis_url:
    from redis.exceptions import ConnectionError as RedisConnectionError

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Pub/Sub channels ignore Redis's database number: the prefix keeps apart two
            # deployments (or test runs) sharing one Redis.
            # A pooled connection Redis closed (a restart, an idle timeout) is found out by
            # the next command on it: that command is sent again once on a new connection, so
            # the first notice after a restart is not lost and the subscriptions come back at
            # once. (The pool's own default is never to retry.)
            "CONFIG": {"hosts": [{"address": _redis_url,
                                  "retry_on_error": [RedisConnectionError]}],
                       "prefix": f"{CACHES['default']['KEY_PREFIX']}.live."},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
LIVE_POLL_SECONDS = env_float("FOURSQUARE_LIVE_POLL_SECONDS", 5.0 if _redis_url else 1.0)
# A socket's periodic check compares the match's latest event number in the cache with its own;
# it reads the feed itself only when behind, or the cache cannot say, and this often whatever.
LIVE_FEED_CHECK_SECONDS = env_float("FOURSQUARE_LIVE_FEED_CHECK_SECONDS", 60.0)
# An open socket outlives nothing that would refuse a request: its token signed out or revoked,
# its player deactivated, it is closed (4401) within this many seconds.
LIVE_TOKEN_CHECK_SECONDS = env_float("FOURSQUARE_LIVE_TOKEN_CHECK_SECONDS", 30.0)

# What one client may hold of the live sockets (server.api.sockets; a seat's slots in each
# game's sockets): a message
# bigger than any the protocol has is refused before it is parsed; one seat's open sockets are
# its presence slots; the sockets per address are counted in each app process (a process that
# dies takes its counts with it), the handshakes per address in the shared cache ("sockets"
# below).
LIVE_MAX_MESSAGE_BYTES = env_int("FOURSQUARE_LIVE_MAX_MESSAGE_BYTES", 1024)
LIVE_SOCKETS_PER_SEAT = env_int("FOURSQUARE_LIVE_SOCKETS_PER_SEAT", 6)
LIVE_SOCKETS_PER_ADDRESS = env_int("FOURSQUARE_LIVE_SOCKETS_PER_ADDRESS", 200)
LIVE_UNAUTHENTICATED_PER_ADDRESS = env_int("FOURSQUARE_LIVE_UNAUTHENTICATED_PER_ADDRESS", 20)
# The account stream over HTTP (server.streams.views): how long one lasts before the client
# reconnects with after/Last-Event-ID, the silence after which it sends a keep-alive, how often
# it reads the table besides the channel layer's notices, and how many one token holds open in
# one process. Its socket (/ws/account) has the live sockets' bounds.
STREAM_SECONDS = env_float("FOURSQUARE_STREAM_SECONDS", 300.0)
STREAM_KEEPALIVE_SECONDS = env_float("FOURSQUARE_STREAM_KEEPALIVE_SECONDS", 20.0)
STREAM_POLL_SECONDS = env_float("FOURSQUARE_STREAM_POLL_SECONDS", 5.0 if _redis_url else 1.0)
STREAMS_PER_TOKEN = env_int("FOURSQUARE_STREAMS_PER_TOKEN", 4)
# A player's account streams and sockets at once, across their tokens and every process
# (counted in the shared cache: server.streams.watch).
STREAMS_PER_PLAYER = env_int("FOURSQUARE_STREAMS_PER_PLAYER", 8)

# "<scope>.<token|address>": at most N requests per second, minute, hour or day, or "off". Each
# scope counts the unsafe requests (POST, PATCH, DELETE) of the views that name it in their
# `throttle_scope`, and their reads too where a view asks (hints, boards). A player plays a move
# a second at most, a game takes a minute or two; one address may hide a whole school behind its
# NAT.
THROTTLE_RATES = {
    scope: os.environ.get(f"FOURSQUARE_RATE_{scope.upper().replace('.', '_')}", "").strip()
    or default
    for scope, default in {
        # Accounts made or claimed in bulk from one address feed a ring on the ratings
        # board (docs/RATINGS.md): guests per address a day, and claims per address a day.
        "players.address": "120/day",
        "claims.address": "10/day",
        "sessions.address": "30/min",
        "games.token": "60/min",
        "games.address": "600/min",
        "moves.token": "300/min",
        "moves.address": "3000/min",
        # A hint runs the bot for up to half a second of CPU.
        "hints.token": "30/min",
        "hints.address": "300/min",
        # Open seeks of Spite & Malice posted: each is listed to every player.
        "seeks.token": "60/hour",
        "seeks.address": "120/hour",
        # Starting a game's analysis: up to a minute of solver CPU in the background (one at a
        # time per player besides; asking again while it is computed is not counted).
        "analyses.token": "30/hour",
        "analyses.address": "120/hour",
        # Creating, joining (guessing codes), renaming and leaving leagues.
        "leagues.token": "30/min",
        "leagues.address": "300/min",
        # Board, daily, profile and statistics reads: public, so per address above all.
        "boards.token": "300/min",
        "boards.address": "1200/min",
        # Live sockets' handshakes: a browser opens one per match screen, and again on a
        # reconnect (backing off).
        "sockets.address": "120/min",
    }.items()
}

# No request of this API needs more than a few hundred bytes.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

# How long an Idempotency-Key's stored response answers retries; older ones are deleted by the
# background worker (every move stores one, about 1.5 KB).
IDEMPOTENCY_KEY_HOURS = env_int("FOURSQUARE_IDEMPOTENCY_KEY_HOURS", 24)

# Moves that succeed are answered in two statements, without DRF (server.foursquare.fastmove); off,
# every move takes the full view's path. The answers are the same either way.
FOURSQUARE_FAST_MOVES = env_bool("FOURSQUARE_FAST_MOVES", True)
# The same for starting a fresh practice deal (server.foursquare.faststart).
FOURSQUARE_FAST_STARTS = env_bool("FOURSQUARE_FAST_STARTS", True)
# The same for Spite & Malice's actions (server.spitemalice.fastaction).
SPITE_MALICE_FAST_ACTIONS = env_bool("SPITE_MALICE_FAST_ACTIONS", True)

# --- The game ----------------------------------------------------------------------------------

# Daily #1. Changing it renumbers every daily.
FOURSQUARE_LAUNCH_DATE = date.fromisoformat(
    os.environ.get("FOURSQUARE_LAUNCH_DATE", "").strip() or "2026-11-01"
)
# Daily deals are HMAC(FOURSQUARE_DAILY_SECRET, date): whoever knows it can compute every future
# deal. Production must set it (see the security checks); elsewhere one is made on first start.
FOURSQUARE_DAILY_SECRET = (
    os.environ.get("FOURSQUARE_DAILY_SECRET", "").strip()
    or ("" if PRODUCTION else local_secret(DATA_DIR, "daily-secret"))
)

# Spite & Malice dailies are HMAC(SPITE_MALICE_DAILY_SECRET, date), independent of Foursquare's.
SPITE_MALICE_DAILY_SECRET = (
    os.environ.get("SPITE_MALICE_DAILY_SECRET", "").strip()
    or ("" if PRODUCTION else local_secret(DATA_DIR, "spite-malice-daily-secret"))
)
# The fairness log's Ed25519 key is SHA-256 of this text (docs/FAIRNESS.md): production sets it,
# elsewhere one is made on first start. Rotating it: the old public key (base64) goes to
# FAIRNESS_PREVIOUS_PUBLIC_KEYS so that earlier entries still verify.
FAIRNESS_SIGNING_KEY = (
    os.environ.get("FAIRNESS_SIGNING_KEY", "").strip()
    or ("" if PRODUCTION else local_secret(DATA_DIR, "fairness-signing-key"))
)
FAIRNESS_PREVIOUS_PUBLIC_KEYS = env_list("FAIRNESS_PREVIOUS_PUBLIC_KEYS", [])
# The housekeeping deals and commits the dailies of today and this many days after (-1: none,
# as the tests' own servers do: each would otherwise prove a week of deals winnable).
FAIRNESS_DAYS_AHEAD = env_int("FAIRNESS_DAYS_AHEAD", 8)
# How long the bot may play in the request that asked for its reply before the rest of its
# turn is left to the background (seconds).
SPITE_MALICE_BOT_SECONDS = env_float("SPITE_MALICE_BOT_SECONDS", 2.0)
# The house bot's levels play one another each hour for their ratings (docs/RATINGS.md,
# "Bots"): a few seconds of a core an hour. Off in the tests' servers and the load's, whose
# figures it would blur.
SPITE_MALICE_LEVELS_PLAY = env_bool("SPITE_MALICE_LEVELS_PLAY", True)

# Background work (server.jobs.background): "thread" runs jobs in this process as soon as
# they are recorded; "off" leaves them to `manage.py run_jobs` (a worker process).
FOURSQUARE_BACKGROUND = os.environ.get("FOURSQUARE_BACKGROUND", "").strip() or "thread"
if FOURSQUARE_BACKGROUND not in ("thread", "off"):
    raise ImproperlyConfigured('FOURSQUARE_BACKGROUND is "thread" or "off".')
# Preparing a daily: the solver's time per deal (seconds), and the bot that sets the reference.
FOURSQUARE_PREPARE_TIME_BUDGET = env_float("FOURSQUARE_PREPARE_TIME_BUDGET", 20.0)
FOURSQUARE_PREPARE_BOT = {"seed": 0}
# Foursquare races: the countdown between the host's start and the first move allowed, and how
# often the worker closes the races whose time is up (a read or the socket may close one first).
RACE_COUNTDOWN_SECONDS = env_int("RACE_COUNTDOWN_SECONDS", 5)
RACE_SWEEP_SECONDS = env_int("RACE_SWEEP_SECONDS", 5)
# The post-game analysis: one bot evaluation per move with 4x the bot's play-outs (about 0.4 s
# of CPU a move, 10-20 s a game). Hints: the bot's own evaluation, capped at half a second.
FOURSQUARE_ANALYSIS_BOT = {"seed": 0, "samples": 256, "screen": 32, "finalists": 6}
# The solver's seconds per question when the analysis looks for the move that lost a game
# (about six questions; a question it cannot answer in time leaves the bot's estimate).
FOURSQUARE_ANALYSIS_SOLVER_SECONDS = 2.0
FOURSQUARE_HINT_BOT = {"seed": 0, "max_seconds": 0.5}

SPECTACULAR_SETTINGS = {
    "TITLE": "Foursquare Daily API",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "server.api.schema.require_request_bodies",
        "server.api.schema.item_schemas",
    ],
    "DESCRIPTION": "Play the daily deal of Foursquare; the server checks every move. The "
                   "sockets are described by the AsyncAPI document at "
                   "[/api/asyncapi/](/api/asyncapi/).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two different sets of choices are both called "status": name each (`check` warns else).
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "server.foursquare.models.Game.Status",
        "StandingStatusEnum": ["won", "lost", "playing", "unfinished", "played", "not_started"],
        "BotStatusEnum": ["won", "lost"],
        "AnalysisStatusEnum": ["done"],
        "AnalysisPendingStatusEnum": ["pending"],
        "MatchModeEnum": "server.spitemalice.models.Match.Mode",
        # Both games' daily inputs say {"mode": "daily"}: one enum, under its first name.
        "DailyGameInputModeEnum": ["daily"],
        "MatchStatusEnum": "server.spitemalice.models.Match.Status",
        "MatchGameStatusEnum": "server.spitemalice.models.MatchGame.Status",
        "BotLevelEnum": "server.spitemalice.models.LEVELS",
        # How an invitation closed unjoined: a cancelled event's reason, and a problem's.
        "ClosedReasonEnum": ["cancelled", "declined", "expired"],
        # Why an invitee declined: the decline's reason, the match's and a cancelled event's.
        "DeclineReasonEnum": "server.spitemalice.models.Match.DeclineReason",
        # The same reasons as bare values: the match's `decline_reason`, an account event's.
        "MatchOutputDeclineReasonEnum": "server.streams.serializers.DECLINE_REASONS",
        # A kind both a match's events and the account stream's have: one enum each.
        "SpiteMaliceJoinedEventKindEnum": ["joined"],
        "SpiteMaliceMatchOverEventKindEnum": ["match_over"],
    },
}

# --- Metrics -----------------------------------------------------------------------------------

# /metrics (server.core.metrics) answers only a request bearing this token; unset, it answers
# 404 as a path that does not exist. Production asks for a token that cannot be guessed.
FOURSQUARE_METRICS_TOKEN = os.environ.get("FOURSQUARE_METRICS_TOKEN", "").strip()
if PRODUCTION and FOURSQUARE_METRICS_TOKEN and len(FOURSQUARE_METRICS_TOKEN) < 32:
    raise ImproperlyConfigured(
        "FOURSQUARE_METRICS_TOKEN is too short for production: use 32 or more random "
        "characters, e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))'")

# --- Logging -----------------------------------------------------------------------------------

# Everything to stderr, where gunicorn and the container runtime collect it. Django's default
# sends server errors only to e-mail when DEBUG is off. Each line carries the id of the request
# it was written for (server.core.requestlog); each request writes one line of its own. JSON, one
# object a line, is what a log collector reads across the nodes; text is for a console.
LOG_FORMAT = (os.environ.get("FOURSQUARE_LOG_FORMAT", "").strip().lower()
              or ("json" if PRODUCTION else "text"))
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"FOURSQUARE_LOG_FORMAT is json or text, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"},
        "json": {"()": "server.core.logformat.JsonFormatter"},
    },
    "filters": {
        # A request Django refuses as suspicious (1,001 query parameters, a body too big, a
        # host not allowed) is the client's fault: a warning, without a traceback.
        "client_faults": {"()": "server.api.logs.ClientFaultFilter"},
        "request_id": {"()": "server.core.logformat.RequestIdFilter"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT,
                   "filters": ["client_faults", "request_id"]},
    },
    "root": {
        "handlers": ["stderr"],
        "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO").strip().upper() or "INFO",
    },
}
