"""The leaderboard's template tags (Django finds them through leaderboard/templatetags/)."""
