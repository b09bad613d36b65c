"""The leaderboard's endpoints.

views, urls   the leaderboard page
forms         its query string, read through a form
templatetags  a rating's words (what a provisional '?' means), for the pages' templates
"""
