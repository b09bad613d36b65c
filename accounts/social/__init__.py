"""Who a player keeps and who they keep away: follows (the Friends page, challenges) and blocks (no
challenge, follow or chat from a blocked account, and never seated together at a public table).
Writes are the `do_*` services of follows.py and blocks.py; reads are in reads.py; targets.py says whom
one may follow or block (an account that exists and is not banned)."""
