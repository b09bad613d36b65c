"""Read-only pages about games: how to play each rule set, replays, fair-dice verification."""

from django.urls import path

import ludopat.converters  # noqa: F401  (registers <gameid>, <username>, <name>)

from . import pages

urlpatterns = [
    path("rules/", pages.rules_index, name="rules_index"),
    path("rules/<name:ruleset>/", pages.rules, name="rules"),
    path("games/<gameid:game_id>/replay/", pages.replay, name="game_replay"),
    path("games/<gameid:game_id>/verify/", pages.verify, name="game_verify"),
    # A finished round under its public replay id (never the room id, which is the invitation).
    path("replays/<gameid:public_id>/", pages.public_replay, name="public_replay"),
    path("replays/<gameid:public_id>/record.json", pages.public_record_json, name="public_record"),
]
