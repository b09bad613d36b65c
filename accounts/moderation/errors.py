"""The refusal of moderation's services (the admin's actions and the desk catch it and show its
sentence). A refusal like every app's (ludopat.refusals), so a page that calls a moderation service
answers with its status and sentence, never a server error."""

from ludopat.refusals import Refusal


class ModerationError(Refusal):
    """A moderator's request that can't be done; the message says why, in a sentence."""
