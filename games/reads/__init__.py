"""Read models of finished games, above the services and below the endpoints.

records      a game's record for download (docs/record.md)
replay_page  the replay page: a record replayed into one step per action
"""
