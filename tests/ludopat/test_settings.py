"""Settings come from the environment: each variable is read in a fresh interpreter, as at start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ludopat.env import env_bool, env_int, env_list, secret_key

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
from ludopat import settings as s
db = s.DATABASES["default"]
print(json.dumps({
    "debug": s.DEBUG, "hosts": s.ALLOWED_HOSTS, "csrf": s.CSRF_TRUSTED_ORIGINS,
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST"), "port": db.get("PORT"),
    "options": db.get("OPTIONS", {}), "redis": s.REDIS_URL, "broker": s.CELERY_BROKER_URL,
    "layer": s.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"], "cache": s.CACHES["default"]["LOCATION"],
    "secret": s.SECRET_KEY, "ssl_redirect": getattr(s, "SECURE_SSL_REDIRECT", False),
    "hsts": getattr(s, "SECURE_HSTS_SECONDS", 0), "secure_cookie": getattr(s, "SESSION_COOKIE_SECURE", False),
    "email": s.EMAIL_BACKEND, "email_host": s.EMAIL_HOST, "email_port": getattr(s, "EMAIL_PORT", None),
}))
"""

VARS = ["DATABASE_URL", "REDIS_URL", "CHANNEL_LAYER_REDIS_URLS", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
        "HTTPS", "EMAIL_HOST", "EMAIL_PORT"]  # fmt: skip


def load(**env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in VARS}
    clean.setdefault("SECRET_KEY", "x" * 60)
    clean.update(env)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return json.loads(out.stdout)


def test_defaults_are_sqlite_in_the_project_and_the_embedded_redis():
    s = load()
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"] == str(ROOT / "db.sqlite3")
    assert s["options"]["transaction_mode"] == "IMMEDIATE"
    assert s["redis"] == "redis://127.0.0.1:6391/0"
    assert s["broker"] == s["redis"] and s["layer"] == [s["redis"]] and s["cache"] == s["redis"]
    assert s["debug"] is False
    assert s["ssl_redirect"] is False and s["secure_cookie"] is False
    assert s["email"] == "django.core.mail.backends.console.EmailBackend"


def test_database_url_selects_postgresql():
    s = load(DATABASE_URL="postgres://alice:pw@db.internal:6543/ludo")
    assert s["engine"] == "django.db.backends.postgresql"
    assert (s["name"], s["host"], s["port"]) == ("ludo", "db.internal", 6543)


def test_redis_url_feeds_layer_cache_and_broker():
    s = load(REDIS_URL="redis://127.0.0.1:6999/3")
    assert s["redis"] == s["broker"] == s["cache"] == "redis://127.0.0.1:6999/3"
    assert s["layer"] == ["redis://127.0.0.1:6999/3"]


def test_channel_layer_redis_urls_shard_the_channel_layer_alone():
    shards = "redis://10.0.0.1:6379/0, redis://10.0.0.2:6379/0"
    s = load(REDIS_URL="redis://r.internal:6380/2", CHANNEL_LAYER_REDIS_URLS=shards)
    assert s["layer"] == ["redis://10.0.0.1:6379/0", "redis://10.0.0.2:6379/0"]
    assert s["cache"] == s["broker"] == s["redis"] == "redis://r.internal:6380/2"


def test_debug_hosts_and_origins():
    s = load(DEBUG="1", ALLOWED_HOSTS="ludopat.example, www.ludopat.example",
             CSRF_TRUSTED_ORIGINS="https://ludopat.example")  # fmt: skip
    assert s["debug"] is True
    assert s["hosts"] == ["ludopat.example", "www.ludopat.example"]
    assert s["csrf"] == ["https://ludopat.example"]


def test_https_turns_on_redirect_hsts_and_secure_cookies():
    s = load(HTTPS="1")
    assert s["ssl_redirect"] is True and s["hsts"] >= 31536000 and s["secure_cookie"] is True


def test_email_host_switches_to_smtp():
    s = load(EMAIL_HOST="127.0.0.1", EMAIL_PORT="2525")
    assert s["email"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (s["email_host"], s["email_port"]) == ("127.0.0.1", 2525)


def test_secret_key_from_environment():
    assert load(SECRET_KEY="k" * 50)["secret"] == "k" * 50


def test_a_typo_in_a_boolean_fails_at_start_up():
    with pytest.raises(subprocess.CalledProcessError):
        load(DEBUG="maybe")


def test_secret_key_generated_once_and_kept(tmp_path):
    key_file = tmp_path / "secret"
    first = secret_key({}, key_file)
    assert len(first) >= 50 and key_file.read_text().strip() == first
    assert secret_key({}, key_file) == first
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"


def test_parsers():
    assert env_bool("X", True, {}) is True
    assert env_bool("X", True, {"X": "off"}) is False
    assert env_list("X", ["a"], {"X": " b , ,c "}) == ["b", "c"]
    assert env_int("X", 3, {"X": "12"}) == 12
    with pytest.raises(ValueError, match="whole number"):
        env_int("X", 3, {"X": "twelve"})
