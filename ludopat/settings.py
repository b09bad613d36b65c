"""Ludopat's one settings module: everything that differs between machines comes from the environment.

DATABASE_URL   default: SQLite file db.sqlite3 in the project folder
REDIS_URL      default: the embedded Redis that `make run` starts (port EMBEDDED_REDIS_PORT, 6391)
CHANNEL_LAYER_REDIS_URLS  default: REDIS_URL; several comma-separated URLs shard the channel layer alone
SECRET_KEY     default: generated once and kept in .secret_key (git-ignored)
DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, HTTPS (1 behind TLS), EMAIL_HOST/EMAIL_PORT/EMAIL_HOST_USER/
EMAIL_HOST_PASSWORD/EMAIL_USE_TLS/DEFAULT_FROM_EMAIL (unset EMAIL_HOST: mail goes to the console).
LUDOPAT_PROXY_COUNT (reverse proxies in front of the site; default 1 with HTTPS=1, else 0) and
LUDOPAT_PROXY_HEADER (the header they append the client's address to; default X-Forwarded-For).
DATABASE_POOL_SIZE (PostgreSQL connections kept per process; default 10, 0: no pool).
DATABASE_REPLICA_URL (a streaming replica of DATABASE_URL's PostgreSQL; default none: every read on the
primary). The leaderboard, players' pages and public replays read it (ludopat/read_replica.py).
LUDOPAT_METRICS_ALLOW (addresses /metrics answers when they connect with no forwarding header; default
127.0.0.1), LUDOPAT_METRICS_TOKEN (a bearer token /metrics answers from anywhere; default none) and
PROMETHEUS_MULTIPROC_DIR (read by prometheus_client itself: the folder every process writes its metrics
to; see ludopat/metrics.py).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import dj_database_url

from .channel_layer import prefix_for
from .env import env_bool, env_int, env_list, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = secret_key(None, BASE_DIR / ".secret_key")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

HTTPS = env_bool("HTTPS", False)
if HTTPS:
    SECURE_SSL_REDIRECT = True
    # The load balancer's probes and Prometheus' scrapes talk to daphne directly, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^health/", r"^metrics$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "django_prometheus",
    "accounts",
    "games",
    "leaderboard",
]

MIDDLEWARE = [
    # django-prometheus: requests, responses and their times, by view (first and last but one, as it
    # asks, so that its times take in the whole chain).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Forwarding headers the site was not told to trust: a warning, once (ludopat/client_address.py).
    "ludopat.client_address.WarnUntrustedForwarding",
    "ludopat.csp.ContentSecurityPolicyMiddleware",
    "ludopat.readable_errors.ReadableRefusalsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # With a read replica: a successful POST's write position in a cookie (ludopat/recent_writes.py).
    "ludopat.recent_writes.RememberWrites",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A session still logged in as a banned account (one the ban could not find) ends here.
    "accounts.web.middleware.EndBannedSessions",
    # The browser's own id (a signed cookie that log-ins and log-outs leave alone).
    "accounts.web.middleware.BrowserMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A player who reported someone is told the outcome on their next page: accounts/web/report_news.py.
    "accounts.web.report_news.TellReporters",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last but for the pass-through below, as django-axes asks: it turns a lock-out raised during
    # authentication into its response.
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
    # Innermost and sync-only, so the whole chain runs in one thread (see the module).
    "ludopat.sync_middleware.OneThreadPerRequest",
]

# bench/live.py's floor (games/web/bench_floor.py) exists only in the bench's web processes: its module
# is then their URLconf and socket routes (the site's plus its own; ludopat/asgi.py picks the routes).
BENCH_FLOOR = env_bool("LUDOPAT_BENCH_FLOOR", False)
ROOT_URLCONF = "games.web.bench_floor" if BENCH_FLOOR else "ludopat.urls"
ASGI_APPLICATION = "ludopat.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
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

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0,
    )
}
# PostgreSQL connections come from a pool of at most DATABASE_POOL_SIZE per process (0: a new connection
# for every request, task and socket event). Not CONN_MAX_AGE: under ASGI every request, and every
# socket's database calls, run in a context of their own, so "persistent" connections would be one per
# request or socket, never reused. Setting up a connection cost PostgreSQL and the web process more CPU
# than the queries of a whole move (bench/live.py); the pool also caps what an overloaded process asks of
# PostgreSQL: past the cap, requests wait for a free connection instead of opening more.
DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", 10)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DATABASE_POOL_SIZE > 0:
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"]["pool"] = {"min_size": 1, "max_size": DATABASE_POOL_SIZE}
# A streaming replica of the primary (PostgreSQL only): `@reads_from_replica` views read it through
# the router (ludopat/read_replica.py). Its pool gives up after 2 s, so a dead replica costs a page
# 2 s once per process and half-minute (the router then reads the primary), not the pool's 30 s.
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"], conn_max_age=0, conn_health_checks=True
    )
    DATABASES["replica"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
    if DATABASE_POOL_SIZE > 0:
        DATABASES["replica"]["OPTIONS"]["pool"] = {
            "min_size": 1,
            "max_size": DATABASE_POOL_SIZE,
            "timeout": 2.0,
        }
    DATABASE_ROUTERS = ["ludopat.read_replica.ReplicaRouter"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock when a transaction starts, so two writers queue instead of one
    # failing with "database is locked" halfway through (SQLite has no select_for_update).
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update({"transaction_mode": "IMMEDIATE", "timeout": 20})
    # A file, not memory, so that daphne and Celery processes started by tests see the test database;
    # one per test session, so two sessions in one checkout never share (and flush) each other's.
    DATABASES["default"]["TEST"] = {
        "NAME": str(BASE_DIR / "var" / f"test-db-{os.getpid()}.sqlite3")
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

EMBEDDED_REDIS_PORT = env_int("EMBEDDED_REDIS_PORT", 6391)


def redis_settings(url: str, channel_layer_urls: list[str] | None = None) -> dict:
    """Every setting that points at Redis: the channel layer, the cache and the Celery broker.

    The channel layer is channels-redis's pubsub layer as the site extends it
    (ludopat/channel_layer.py: a push is one PUBLISH, at most once). It alone may be spread over
    several Redis servers (`channel_layer_urls`): each group (a game's viewers, an account's sockets)
    lives on the server its name hashes to, so pushes grow past one Redis. The cache (presence, rate
    limits, shared renders) and the broker stay on `url`, one server that every process agrees on.
    """
    layer_urls = list(channel_layer_urls or [url])
    return {
        "REDIS_URL": url,
        "CHANNEL_LAYER_REDIS_URLS": layer_urls,
        "CHANNEL_LAYERS": {
            "default": {
                "BACKEND": "ludopat.channel_layer.PubSubLayer",
                "CONFIG": {"hosts": layer_urls, "prefix": prefix_for(layer_urls)},
            }
        },
        "CACHES": {
            "default": {
                # One client per process, not one per request (ludopat/redis_cache.py).
                "BACKEND": "ludopat.redis_cache.SharedRedisCache",
                "LOCATION": url,
                "KEY_PREFIX": "ludopat",
            }
        },
        "CELERY_BROKER_URL": url,
    }


globals().update(
    redis_settings(
        os.environ.get("REDIS_URL") or f"redis://127.0.0.1:{EMBEDDED_REDIS_PORT}/0",
        env_list("CHANNEL_LAYER_REDIS_URLS", []),
    )
)
# Set just above through globals(); declared here for the type checker (django-stubs reads a
# setting's type from this module).
REDIS_URL: str
CHANNEL_LAYER_REDIS_URLS: list[str]
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.users.backends.LiftExpiredBan",  # a timed ban that has run out ends before the password check
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# A second factor (docs/moderation.md, "A second factor"): an authenticator app (TOTP) and single-use
# recovery codes, from django-otp. Its middleware, right after Django's, tells each request whether a
# device verified the session; the admin site is ours (accounts/web/admin_site.py): like the desk, it
# refuses a staff session that no device verified. One block, so the lists above stay as they read.
INSTALLED_APPS = [
    "accounts.web.admin_site.AdminConfig" if app == "django.contrib.admin" else app
    for app in INSTALLED_APPS
] + ["django_otp", "django_otp.plugins.otp_totp", "django_otp.plugins.otp_static"]
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
    "django_otp.middleware.OTPMiddleware",
)
OTP_TOTP_ISSUER = "Ludopat"  # the name the authenticator app shows beside the account
# Not even a superuser reads a staff member's secret or recovery codes in the admin (a deleted device is
# replaced by its owner: `manage.py reset_second_factor`).
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# A username-and-address pair is locked after AXES_FAILURE_LIMIT failures for AXES_COOLOFF_MINUTES.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429

# The client's address behind our reverse proxies (ludopat/client_address.py): how many proxies append
# to which header. The rate limits and django-axes read it the same way; 0 means REMOTE_ADDR.
LUDOPAT_PROXY_COUNT = env_int("LUDOPAT_PROXY_COUNT", 1 if HTTPS else 0)
LUDOPAT_PROXY_HEADER = os.environ.get("LUDOPAT_PROXY_HEADER", "X-Forwarded-For")
# Who /metrics answers (ludopat/ops_views.py): a request with this bearer token, or from one of these
# addresses with no forwarding header at all; anyone else gets a 404.
LUDOPAT_METRICS_ALLOW = env_list("LUDOPAT_METRICS_ALLOW", ["127.0.0.1"])
LUDOPAT_METRICS_TOKEN = os.environ.get("LUDOPAT_METRICS_TOKEN", "")
AXES_CLIENT_IP_CALLABLE = "ludopat.client_address.for_axes"

SESSION_COOKIE_HTTPONLY = True
# Django's database sessions, their read compiled once per process and database (ludopat/sessions.py).
SESSION_ENGINE = "ludopat.sessions"
CSRF_COOKIE_HTTPONLY = False  # htmx reads it to send X-CSRFToken
# A refused CSRF check (a page left open while the session changed) gets the site's own page, saying so.
CSRF_FAILURE_VIEW = "ludopat.readable_errors.csrf_failure"

EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Ludopat <noreply@localhost>")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "var" / "static"  # collectstatic's target; whitenoise serves via finders
with contextlib.suppress(OSError):  # a read-only deployment ran collectstatic at build time
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve straight from the app/static folders without collectstatic, so `make run` needs no build step.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}

# Tests may fix the fair-dice server seeds (LUDOPAT_FIXED_SERVER_SEED, honoured only with this on) and
# use short timers; production seeds are always fresh (see games.actions).
LUDOPAT_TEST_SEEDS = env_bool("LUDOPAT_TEST_SEEDS", False)

# Game pacing, in seconds. Test settings modules shorten them.
LUDOPAT_BOT_DELAY = 0.9  # a computer's visible pause before it acts
LUDOPAT_DISCONNECT_GRACE = 5.0  # a disconnected player's due action waits this long for the bot
LUDOPAT_AWAY_DELAY = 2.0  # the bot's pause before acting for a seat marked away
LUDOPAT_ACTION_RATE = (30, 10)  # at most 30 actions per 10 s per player, then 429
LUDOPAT_CHAT_RATE = (5, 10)  # at most 5 chat messages per 10 s per player
# Other rate limits (ludopat/throttle.py): (events, seconds) per browser and per account; a client
# address may do LUDOPAT_ADDRESS_RATE_FACTOR times as much (it may be a school or a café).
LUDOPAT_RATES = {"new_game": (20, 600), "signup": (5, 3600), "password_reset": (5, 3600)}
LUDOPAT_ADDRESS_RATE_FACTOR = 4
# Every WebSocket connection's frames: a burst of 30, then 3 a second; faster closes it (code 4429).
LUDOPAT_FRAME_RATE = (30, 3.0)
AUTH_USER_MODEL = "accounts.User"

# Celery beat: the deadline sweeper of timed games (games.timers). A sweep not started within its
# period is dropped: the next one does the same work.
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": 2.0,
        "options": {"expires": 2.0},
    },
    # Expired sessions (one per anonymous visitor) are deleted hourly; they would pile up for ever.
    "clear-sessions": {
        "task": "accounts.tasks.clear_sessions",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
    # Timed bans end on time (accounts.users.sanctions.lift_expired_bans).
    "lift-expired-bans": {
        "task": "accounts.tasks.lift_expired_bans",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # The ledger's invariants (accounts.ledger.watch): a problem is logged at ERROR and shown to the
    # Admin group on every page until a later check finds the ledger sound.
    "check-ledger": {
        "task": "accounts.tasks.check_ledger",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
    # Scheduled series open their instances ahead of time (games.tournaments.series); a run that
    # overlaps or repeats another opens nothing twice.
    "open-tournament-series": {
        "task": "games.tasks.open_series",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # Games nobody finishes are closed (games.actions.idle); they would stay "playing" for ever.
    "close-idle-games": {
        "task": "games.tasks.close_idle_games",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
    # A ratings replay whose task was lost is done anyway (leaderboard.tasks.finish_lost_replays).
    "finish-lost-rating-replays": {
        "task": "leaderboard.tasks.finish_lost_replays",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
}
