"""A game room, its seats and the append-only log of everything that happened in it.

The Action log is the truth: a round's engine state is rebuilt by replaying that round's `roll` and
`move` actions (`Game.state` is a copy for listing and rendering, docs/record.md's state without `legal`).
Each round has its own fair-dice server seed, so a finished round's seed can be revealed while the next
round's stays secret.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse


def new_game_id() -> str:
    """An unguessable room id: 96 random bits; only people given the link can open the room."""
    return secrets.token_urlsafe(12)


RULESETS = [
    ("classic", "Classic"),
    ("duel", "Duel"),
    ("places", "Places"),
    ("twodice", "Two dice"),
]
RULESET_NAMES = dict(RULESETS)
LEVELS = [("random", "Easy"), ("greedy", "Medium"), ("strong", "Hard")]
LEVEL_NAMES = dict(LEVELS)


class Game(models.Model):
    class Mode(models.TextChoices):
        COMPUTER = "computer", "Vs computer"
        LOCAL = "local", "Pass & play"
        FRIENDS = "friends", "Friends room"

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    id = models.CharField(primary_key=True, max_length=24, default=new_game_id, editable=False)
    mode = models.CharField(max_length=10, choices=Mode.choices)
    ruleset = models.CharField(max_length=10, choices=RULESETS)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Who may act for the non-computer seats of a computer or pass & play game (and who hosts a room).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    owner_key = models.CharField(max_length=64, blank=True, db_index=True)

    round = models.PositiveIntegerField(default=1)
    # The current round's turn order: a list of colour lists (docs/record.md `players`).
    players = models.JSONField(default=list)
    state = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=0)
    message = models.CharField(max_length=300, blank=True)

    # Fair dice of the current round (docs/record.md "Fair dice"). `nonce` is the next die's nonce.
    server_seed = models.CharField(max_length=64)
    server_seed_sha256 = models.CharField(max_length=64)
    client_seed = models.CharField(max_length=400, blank=True)  # fixed at the first roll
    nonce = models.PositiveIntegerField(default=0)

    # Site-level result of the round when it ended outside the engine (a resignation): seat indexes.
    result_places = models.JSONField(default=list, blank=True)
    # Seat indexes that agreed to a new round (empty: nobody asked).
    new_round_votes = models.JSONField(default=list, blank=True)

    # Timers (0 = off). `deadline` is when the system acts next (indexed: the sweeper's column): the bot
    # plays for the seat to act, or a pause ends. `turn_deadline` is the acting player's own time limit;
    # a disconnection or an away seat brings `deadline` earlier than it.
    timer_seconds = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    pauses_per_player = models.PositiveSmallIntegerField(default=2)
    pause_seconds = models.PositiveIntegerField(default=60)
    # A staked room (a friends room for two with a stake): coins each player puts in the
    # game's escrow (0: not staked). `quick`: opened by quick match (paired there, not in the lobby).
    stake = models.PositiveIntegerField(default=0)
    quick = models.BooleanField(default=False)
    # A tournament's match (games.tournaments): no stake of its own, no new round, and a round that
    # ends for nobody is played again, so every match has a winner.
    in_tournament = models.BooleanField(default=False)
    # A public table (Play now, games.tables): strangers seated by the waiting list, listed on the
    # Live now page while it plays. Otherwise a timed friends room like any other.
    public = models.BooleanField(default=False)
    # False for a room its players chose to play unrated (a challenge may be): its rounds move no
    # rating and credit no leaderboard points.
    rated = models.BooleanField(default=True)
    # A staked rematch offer: the finished game it was offered from, and the old opponent, the only
    # account that may join it (such a room is not listed in the lobby).
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Not null while a pause runs: the acting seat's time left when it began (the clock stands still).
    paused_remaining_ms = models.PositiveIntegerField(null=True, blank=True)
    # Tries of the computer's turn that raised at this version: after 3 it plays a random legal action.
    bot_failures = models.PositiveSmallIntegerField(default=0)

    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated"]
        indexes = [
            models.Index(fields=["owner", "status"]),
            models.Index(fields=["deadline"], name="game_deadline_idx"),
            # The staked lobby and quick match: open staked rooms, oldest first.
            models.Index(
                fields=["quick", "stake", "created"],
                condition=models.Q(status="open", stake__gt=0),
                name="game_open_staked_idx",
            ),
            # Live now: public tables in play.
            models.Index(
                fields=["status", "started"],
                condition=models.Q(public=True),
                name="game_public_idx",
            ),
        ]
        permissions = [("void_game", "Can void the round in play")]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} {self.ruleset} {self.id}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.id])

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABANDONED)

    @property
    def is_paused(self) -> bool:
        return self.paused_remaining_ms is not None

    @property
    def ruleset_name(self) -> str:
        return RULESET_NAMES.get(self.ruleset, self.ruleset)


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", "Player"  # an account (friends rooms) or the browser that owns the game
        LOCAL = "local", "Local player"  # a named player at a pass & play table
        COMPUTER = "computer", "Computer"
        OPEN = "open", "Open seat"  # a friends room seat waiting for a guest

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()  # seat order: client seeds are joined in this order
    colours = models.JSONField(default=list)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player_key = models.CharField(max_length=64, blank=True)
    name = models.CharField(max_length=40, blank=True)
    level = models.CharField(max_length=10, choices=LEVELS, blank=True)
    client_seed = models.CharField(max_length=64, default="", blank=True)
    # A human seat played by the computer (absent player handed over, or a resignation).
    bot_controlled = models.BooleanField(default=False)
    resigned = models.BooleanField(default=False)

    # Timers and presence (the next piece of work reads these).
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    is_away = models.BooleanField(default=False)
    last_seen = models.DateTimeField(null=True, blank=True)
    # The account's shown rating in the game's rule set when the round started (written by the
    # leaderboard's round-start handler), so the board and the lobby show it without a query.
    rating = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="seat_index_unique")]
        # "Continue" on the home page finds an anonymous browser's seats by its player key.
        indexes = [models.Index(fields=["player_key"], name="seat_player_key_idx")]

    def __str__(self) -> str:
        return f"{self.display_name} ({'/'.join(self.colours)})"

    @property
    def is_bot(self) -> bool:
        return self.kind == self.Kind.COMPUTER or self.bot_controlled

    @property
    def is_human(self) -> bool:
        return self.kind in (self.Kind.HUMAN, self.Kind.LOCAL)

    @property
    def display_name(self) -> str:
        if self.kind == self.Kind.COMPUTER:
            return self.name or f"{self.colours[0].title() if self.colours else 'The'} computer"
        if self.kind == self.Kind.OPEN:
            return "Open seat"
        if not self.name and self.user is not None:  # no query when there is no account
            return self.user.username
        return self.name or "Player"


class Action(models.Model):
    """One entry of a game's append-only log. `data` is a record's roll or move (docs/record.md)."""

    class Kind(models.TextChoices):
        CREATE = "create"
        JOIN = "join"
        LEAVE = "leave"
        SEAT = "seat"  # a seat changed before the start (computer added, client seed set)
        START = "start"
        ROLL = "roll"
        MOVE = "move"
        RESIGN = "resign"
        TAKEOVER = "takeover"  # an absent player's seat handed to the computer, or taken back
        NEW_ROUND = "new_round"  # a request, an agreement, or the new round itself
        ABANDON = "abandon"
        PAUSE = "pause"
        RESUME = "resume"
        BACK = "back"  # an away player pressed "I'm back"

    class Auto(models.TextChoices):
        """Why the computer played a person's roll or move."""

        NONE = "", "The player"
        TIMEOUT = "timeout", "Time ran out"
        AWAY = "away", "Player away"
        ABSENT = "absent", "Player disconnected"
        # The computer holds a person's seat (handed over after two minutes away, or resigned).
        STAND_IN = "standin", "Computer holds the seat"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    round = models.PositiveIntegerField()
    seq = models.PositiveIntegerField()  # the game version this action produced
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    data = models.JSONField(default=dict, blank=True)
    text = models.CharField(max_length=300, blank=True)  # for the move log
    # A person's roll or move the computer played: why, and the deadline it answered.
    auto = models.CharField(max_length=10, choices=Auto.choices, blank=True, default="")
    deadline = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="action_seq_unique")]
        indexes = [models.Index(fields=["game", "round", "seq"])]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"


def new_public_id() -> str:
    """A finished round's public replay id: unrelated to the room id, which is the room's invitation."""
    return secrets.token_urlsafe(12)


class Round(models.Model):
    """A finished (or abandoned) round's fair-dice facts, written when the round ends (or, for a round
    that never finished, when the room starts a new one)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    # Profiles and the leaderboard link replays by this id, so a stranger never learns the room's link.
    public_id = models.CharField(max_length=24, unique=True, default=new_public_id, editable=False)
    players = models.JSONField(default=list)
    server_seed = models.CharField(max_length=64)
    client_seed = models.CharField(max_length=400, blank=True)
    places = models.JSONField(default=list, blank=True)  # seat indexes, first place first
    # How the round ended (games.core.round_ends: "won", "resign", ...); "" for a round that never ended.
    # A replay can't tell it from the moves: a resignation leaves the board unfinished.
    how = models.CharField(max_length=10, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} round {self.number}"


class Pause(models.Model):
    """A pause a player took: the clock stands still and the chat is open until it ends."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pauses")
    round = models.PositiveIntegerField()
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="pauses")
    started = models.DateTimeField(auto_now_add=True)
    ends = models.DateTimeField()  # when it runs out if nobody resumes
    ended = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )  # null: it ran out
    remaining_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["started"]
        indexes = [models.Index(fields=["game", "round", "seat"])]

    def __str__(self) -> str:
        return f"{self.game_id} pause by seat {self.seat_id}"


class ChatMessage(models.Model):
    """A line of a game's chat (open during pauses). Stored as typed after cleaning; escaped on output.
    Players' reports of it are moderation's (accounts.moderation.models.Report, related name
    `reports`)."""

    MAX_LENGTH = 200

    # A game's chat, or a tournament's (its page: players and spectators); exactly one of the two.
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="chat_messages"
    )
    tournament = models.ForeignKey(
        "games.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="chat_messages",
    )
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=150)  # the author's name when it was written
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)
    # Hidden by a moderator: kept for the record, shown to nobody.
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["created", "pk"]
        indexes = [
            models.Index(fields=["game", "created"]),
            models.Index(fields=["tournament", "created"], name="chat_tournament_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game__isnull=False, tournament__isnull=True)
                | models.Q(game__isnull=True, tournament__isnull=False),
                name="chat_in_game_or_tournament",
            ),
        ]
        permissions = [("hide_chatmessage", "Can hide a chat message")]

    def __str__(self) -> str:
        return f"{self.name}: {self.text[:40]}"


from .challenges.models import Challenge  # noqa: E402, F401  (Django finds it here)
from .staking.models import StakeRequest  # noqa: E402, F401  (Django finds it here)
from .tables.models import TableWait  # noqa: E402, F401  (Django finds it here)
from .tournaments.models import (  # noqa: E402, F401  (Django finds them here)
    Tournament,
    TournamentEntry,
    TournamentMatch,
    TournamentSeries,
)
