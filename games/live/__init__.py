"""The live part of the game page: who is looking (viewpoint), what the board shows from the log
(history), the template context (presenter) and the HTML kept per viewpoint (fragments)."""
