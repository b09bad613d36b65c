"""Game URLs: setup, the game page and its actions, records (filled in by the web-play work)."""

urlpatterns: list = []
