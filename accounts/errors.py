"""Errors of the account services that other apps raise too (so they import this, not the services)."""


class ModerationError(Exception):
    """A moderator's request that can't be done; the message says why, in a sentence."""
