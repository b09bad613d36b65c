"""How a round can end: one list for the code that ends rounds, settles stakes and scores results.

The ranked ends order the seats by place (a side that gave up is last); the unranked ones count for
nobody, and every stake goes back.
"""

RANKED = frozenset({"won", "resign", "leave", "abandon", "wipe"})
# agreed: everyone agreed to end it; idle: closed by the idle sweeper; void: a moderator's void or a
# staked game both players left; cancel: a room closed before its start.
UNRANKED = frozenset({"agreed", "idle", "void", "cancel"})
ENDS = RANKED | UNRANKED
