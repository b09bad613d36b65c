"""Accounts' template libraries; Django finds them through the app's templatetags/ package, which
re-exports each one's `register`."""
