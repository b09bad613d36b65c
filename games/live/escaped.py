"""HTML escaping, once per process, of the short strings the board's regions show at every version:
a game's status, rule set and addresses, the colours, the players' names. The opening tag and the
players' cards escape some forty of them per version, nearly all the ones the last version did, and
a lookup here costs a third of an escape."""

from __future__ import annotations

from functools import lru_cache
from html import escape

escaped = lru_cache(maxsize=8192)(escape)
