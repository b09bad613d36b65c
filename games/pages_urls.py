"""Read-only pages about games: how to play each rule set, replays, fair-dice verification."""

urlpatterns: list = []
