"""Challenges between players: a free or staked table offered to one account, answered within minutes."""
