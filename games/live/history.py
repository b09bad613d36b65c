"""What a board shows from the action log and the finished rounds, and the names it shows now: reads,
done once per version and process for all its viewpoints (the mover's POST answer, the other seats',
the spectators'), kept in games.core.caches.HISTORIES as a `caches.History`.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from ..core import caches
from ..core.caches import History, Step
from ..core.narration import referenced_users
from ..models import Action, Game, Round, Seat

LOG_LENGTH = 40


def history_of(game: Game) -> History:
    """The version's history, read once per process for all its viewpoints: games.core.caches.HISTORIES."""
    key = (game.pk, game.round, game.version)
    found = caches.HISTORIES.get(key)
    if found is not None:
        return found
    history = _one_step_on(game) or read_history(game)
    caches.keep(caches.HISTORIES, key, history)
    return history


def _one_step_on(game: Game) -> History | None:
    """This version's history from the last version's, kept here, and the one action between them (one
    query instead of four). Only a roll or a move in a round still being played: anything else may
    end a round or start one, and is read in full."""
    previous = caches.HISTORIES.get((game.pk, game.round, game.version - 1))
    if previous is None or game.status != Game.Status.PLAYING:
        return None
    step = caches.STEPS.get((game.pk, game.version)) or _read_step(game)
    if step is None:
        return None
    if step.round != game.round or step.kind not in (Action.Kind.ROLL, Action.Kind.MOVE):
        return None
    last_token, last_roll = previous.last_token, previous.last_roll
    if step.token is not None:
        last_token = step.token
    if step.roll is not None:
        last_roll = step.roll
    log = previous.log
    if step.text:
        log = ((game.version, step.kind, step.text), *log[: LOG_LENGTH - 1])
    return History(last_token, last_roll, log, previous.rounds)


def _read_step(game: Game) -> Step | None:
    """The action that made the game's version, read (another process made it)."""
    found = (
        Action.objects.filter(game=game, seq=game.version)
        .values_list("round", "kind", "data", "text")
        .first()
    )
    if found is None:
        return None
    round_, kind, data, text = found
    token = tuple(data["move"]["token"]) if kind == Action.Kind.MOVE else None
    roll = tuple(data["roll"]) if kind == Action.Kind.ROLL else None
    return Step(round_, kind, token, roll, text)


def read_history(game: Game) -> History:
    """The version's history read in full (four queries)."""
    # Up to this version only: a row committed since the game was read belongs to the next version.
    actions_now = Action.objects.filter(game=game, seq__lte=game.version)
    this_round = actions_now.filter(round=game.round).order_by("-seq")
    move = this_round.filter(kind=Action.Kind.MOVE).values_list("data", flat=True).first()
    roll = this_round.filter(kind=Action.Kind.ROLL).values_list("data", flat=True).first()
    log = actions_now.exclude(text="").order_by("-seq").values_list("seq", "kind", "text")
    return History(
        last_token=tuple(move["move"]["token"]) if move else None,
        last_roll=tuple(roll["roll"]) if roll else (),
        log=tuple(log[:LOG_LENGTH]),
        rounds=tuple(Round.objects.filter(game=game).values_list("number", flat=True)),
    )


def display_names(game: Game, seats: list[Seat], history: History) -> dict[int, str]:
    """{account id: its name now} for the accounts the board names: its seats' players, and anyone
    the message line or the log names who has left the room since (one query, only then)."""
    names = {s.user.pk: s.user.username for s in seats if s.user is not None}
    texts = [game.message, *(text for _, _, text in history.log)]
    wanted = referenced_users(texts) - names.keys()
    if wanted:
        users = get_user_model().objects.filter(pk__in=wanted)
        names.update(users.values_list("pk", "username"))
    return names
