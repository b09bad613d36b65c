"""Ratings: a skill number per account and rule set (docs/ratings.md).

`scale` (the model and the shown number), `reads` (what pages and quick match read), `update` (a round's
rated results, in the round-end transaction), `rating_replay` (rebuilding a rule set from its results: its
steps in `rebuild`, and `rule_set_lock`, the moments in which no round's end rates). The pages' parts: `board` (the "Rating"
board of /leaderboard/) and `board_version` (its cache token), `player` (a player's ratings and
chart), `seats` (each account's rating on its seat at a round's start); `writes` is the one-statement
bulk update the replay and the update use.
"""
