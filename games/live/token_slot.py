"""The CSRF token slot of each POST form in the board's regions (templates/games/_page_token.html).
The regions are cached and shared between viewers, so they never carry anyone's token: htmx sends the
page's token in a header, and the full page's render fills the slots for a browser without JavaScript
(games.live.fragments.with_page_token)."""

TOKEN_SLOT = '<input type="hidden" name="csrfmiddlewaretoken" value="" data-page-token>'  # noqa: S105  an empty slot, not a secret
