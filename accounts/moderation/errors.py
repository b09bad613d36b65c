"""The refusal of moderation's services (the admin's actions catch it and show its sentence)."""


class ModerationError(Exception):
    """A moderator's request that can't be done; the message says why, in a sentence."""
