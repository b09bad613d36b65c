"""How a round can end: one list for the code that ends rounds, settles stakes and scores results.

The ranked ends order the seats by place (a side that gave up is last); the unranked ones count for
nobody, and every stake goes back. The values are the strings stored in `Round.how` and `Result.how`.
"""

from enum import StrEnum


class RoundEnd(StrEnum):
    WON = "won"  # the winning move
    RESIGN = "resign"  # the last opponent resigned
    LEAVE = "leave"  # the last opponent left a room in play
    ABANDON = "abandon"  # a computer or pass & play game dropped, or a room closed mid-game
    WIPE = "wipe"  # a new round asked for over the round in play (the asker gave it up)
    AGREED = "agreed"  # everyone agreed to end it
    IDLE = "idle"  # closed by the idle sweeper
    VOID = "void"  # a moderator's void, or a staked game both players left
    CANCEL = "cancel"  # a room closed before its start


RANKED = frozenset({RoundEnd.WON, RoundEnd.RESIGN, RoundEnd.LEAVE, RoundEnd.ABANDON, RoundEnd.WIPE})
UNRANKED = frozenset({RoundEnd.AGREED, RoundEnd.IDLE, RoundEnd.VOID, RoundEnd.CANCEL})
ENDS = RANKED | UNRANKED
# Played out (or given up): the game is finished; the others leave it abandoned.
PLAYED = frozenset({RoundEnd.WON, RoundEnd.RESIGN, RoundEnd.LEAVE, RoundEnd.WIPE})
