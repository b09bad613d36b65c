"""What every part of a game builds on, below the actions: who is asking, the refusals, how a round
ends and the handlers the layers above register, presence, the push after commit and the process
caches, the reads the actions share, the sentences of the log.

    errors                a refusal of a game action (an HTTP status and a sentence)
    actors                who is asking, and what they may control
    round_ends            how a round can end (the values stored in Round.how) and the handlers
                          the layers above register to run when it does (settle, record, follow)
    round_start_handlers  what the layers above run when a round starts
    token_home_handlers   what the layers above run when a token reaches home mid-round
    public_rounds         finished rounds under their public replay id
    task_queue            Celery tasks queued by name
    presence              which seats have a player present (Redis)
    broadcast             what a game's viewers are pushed, after commit (sent by ludopat.push)
    stamp                 what a board fragment depends on: the push's and the render's one stamp
    lru, caches           the process's caches and their LRU
    selectors             reads that write nothing: a game with its seats, chat, pauses
    narration             sentences for what happened: the message line, the move log
"""
