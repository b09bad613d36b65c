"""The refusal of the social services: a follow or block that can't be done, said in a sentence."""

from ludopat.refusals import Refusal


class SocialError(Refusal):
    """A follow, block or challenge that can't be done; the message says why."""
