"""The leaderboard's endpoints.

views, urls   the leaderboard page
forms         its query string, read through a form
"""
