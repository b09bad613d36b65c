"""The game page's presenters, below the endpoints and above the services: what a viewer's board and
chat show, worked out once per version and viewpoint.

    viewpoint        who is looking
    history          what the board shows from the log, read once per version
    presenter        the template context of the board for a viewpoint (what every viewer sees
                     alike once per version, then each one's own), and of the chat panel
    fragments        the HTML kept per region and variant, the chat's pieces, a socket's small ones
    head_tag         the opening tag of #game-live, built in Python
    player_card      a player's card in #live-players, built in Python
    dice_panel       the dice panel (Roll, whose turn, the token buttons), built in Python
    dice_faces       a die's face as SVG
    board_region     the board's region, built in Python, drawn once per set of positions
    small_regions    the message line and the log, built in Python; fair dice and the buttons,
                     rendered once per set of what they read
    token_slot       the empty CSRF token slot of the board's forms
    board_view       turns token positions into what the board partial draws
    board_layout     where things sit on the 15 x 15 board picture
    board_pieces     the board's moving parts as SVG markup
    new_round_words  what the confirmation before "New round" mid-round says
"""
