"""Reading settings from the environment: small, strict parsers so a typo fails loudly at start-up."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool, environ: Mapping[str, str] | None = None) -> bool:
    env: Mapping[str, str] = os.environ if environ is None else environ
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ValueError(f"{name} must be 1/0, true/false, yes/no or on/off, not {raw!r}")


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    env: Mapping[str, str] = os.environ if environ is None else environ
    raw = env.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int, environ: Mapping[str, str] | None = None) -> int:
    env: Mapping[str, str] = os.environ if environ is None else environ
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None


def secret_key(environ: Mapping[str, str] | None, key_file: Path) -> str:
    """SECRET_KEY from the environment, else one generated on first run and kept in a git-ignored file.

    Keeping it in a file (not regenerating per start) keeps sessions valid across `make run` restarts.
    """
    env: Mapping[str, str] = os.environ if environ is None else environ
    if env.get("SECRET_KEY"):
        return env["SECRET_KEY"]
    try:
        key = key_file.read_text().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    key_file.write_text(key + "\n")
    key_file.chmod(0o600)
    return key
