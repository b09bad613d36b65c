"""Forms: the setup screens, and every action's parameters (a client never sends a die number)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.forms.forms import DeclarativeFieldsMetaclass

from ludopat.numbers import AsciiIntegerField, parse_int

from .. import engine
from ..engine.board import COLOURS
from ..models import LEVELS, RULESETS, Seat

if TYPE_CHECKING:
    from ..actions import SeatSpec, TimerSpec

PLAYER_COUNTS = [(2, "2 players"), (3, "3 players"), (4, "4 players")]


class SetupForm(forms.Form):
    """Rule set and options, shared by every mode."""

    ruleset = forms.ChoiceField(choices=RULESETS, initial="classic")
    players = forms.TypedChoiceField(choices=PLAYER_COUNTS, coerce=int, initial=4)
    tokens = forms.TypedChoiceField(
        choices=[(4, "4 tokens"), (2, "2 tokens (quick game)")],
        coerce=int,
        initial=4,
        required=False,
        help_text="Classic only.",
    )
    pairs = forms.BooleanField(
        required=False,
        label="UP Way pairs",
        help_text="Places only. Two tokens on one square form a pair: they move together by half "
        "an even roll, block single rivals, and only a pair captures a pair.",
    )
    hold = forms.BooleanField(
        required=False,
        label="Hold dice numbers",
        help_text="Places only. Every number rolled goes into your hand; a 6, a capture or a token "
        "home owe you a roll that you may take now or later in the turn.",
    )

    def seat_count(self) -> int:
        """The players chosen, if the rule set seats that many; else the fewest it seats (duel and
        twodice are for two, whatever the players field says)."""
        counts = engine.seat_counts(self.cleaned_data["ruleset"])
        players = self.cleaned_data["players"]
        return players if players in counts else counts[0]

    def seat_specs(self) -> list[SeatSpec]:
        """Who sits where (each mode's form says)."""
        raise NotImplementedError

    def options(self) -> dict:
        ruleset = self.cleaned_data["ruleset"]
        if ruleset == "classic":
            return {"tokens": self.cleaned_data.get("tokens") or 4}
        if ruleset == "places":
            return {"pairs": self.cleaned_data["pairs"], "hold": self.cleaned_data["hold"]}
        return {}


def _level_field(initial: str = "greedy") -> forms.ChoiceField:
    return forms.ChoiceField(choices=LEVELS, initial=initial, required=False)


class ComputerGameForm(SetupForm):
    """Play vs computer: seat 1 is you, the other seats are computers of a chosen level."""

    level_2 = _level_field()
    level_3 = _level_field()
    level_4 = _level_field()

    def seat_specs(self) -> list[SeatSpec]:
        from ..actions import SeatSpec

        specs = [SeatSpec(Seat.Kind.HUMAN)]
        for i in range(2, self.seat_count() + 1):
            specs.append(
                SeatSpec(Seat.Kind.COMPUTER, level=self.cleaned_data[f"level_{i}"] or "greedy")
            )
        return specs


SEAT_KINDS = [("local", "Player"), ("computer", "Computer")]


class LocalGameForm(SetupForm):
    """Pass & play: 2-4 named players at one screen, any mix with computers."""

    kind_1 = forms.ChoiceField(choices=SEAT_KINDS, initial="local", required=False)
    kind_2 = forms.ChoiceField(choices=SEAT_KINDS, initial="local", required=False)
    kind_3 = forms.ChoiceField(choices=SEAT_KINDS, initial="computer", required=False)
    kind_4 = forms.ChoiceField(choices=SEAT_KINDS, initial="computer", required=False)
    name_1 = forms.CharField(max_length=20, required=False)
    name_2 = forms.CharField(max_length=20, required=False)
    name_3 = forms.CharField(max_length=20, required=False)
    name_4 = forms.CharField(max_length=20, required=False)
    level_1 = _level_field()
    level_2 = _level_field()
    level_3 = _level_field()
    level_4 = _level_field()

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        count = self.seat_count()
        kinds = [data.get(f"kind_{i}") or "local" for i in range(1, count + 1)]
        if "local" not in kinds:
            raise forms.ValidationError("At least one seat needs a person.")
        return data

    def seat_specs(self) -> list[SeatSpec]:
        from ..actions import SeatSpec

        specs = []
        for i in range(1, self.seat_count() + 1):
            kind = self.cleaned_data.get(f"kind_{i}") or "local"
            if kind == "computer":
                specs.append(
                    SeatSpec(Seat.Kind.COMPUTER, level=self.cleaned_data[f"level_{i}"] or "greedy")
                )
            else:
                name = (self.cleaned_data.get(f"name_{i}") or "").strip() or f"Player {i}"
                specs.append(SeatSpec(Seat.Kind.LOCAL, name=name))
        return specs


def _seconds(n: int) -> str:
    return f"{n} seconds"


class FriendsRoomForm(SetupForm):
    """A private room: the host takes seat 1; the others wait for guests (or computers)."""

    timer = forms.TypedChoiceField(
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,  # type: ignore[arg-type]  # any value will do; the stubs say str
        label="Timer",
        help_text="Seconds per roll or move. When time runs out, the computer plays that action.",
    )
    pauses = forms.TypedChoiceField(
        coerce=int,
        initial=2,
        required=False,
        empty_value=2,  # type: ignore[arg-type]  # any value will do; the stubs say str
        label="Pauses per player",
    )
    pause_seconds = forms.TypedChoiceField(
        coerce=int,
        initial=60,
        required=False,
        empty_value=60,  # type: ignore[arg-type]  # any value will do; the stubs say str
        label="Pause length",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from ..actions.clock import PAUSE_COUNT_CHOICES, pause_seconds_choices, timer_choices

        super().__init__(*args, **kwargs)
        self.fields["timer"].choices = [  # type: ignore[attr-defined]  # a ChoiceField
            (n, "Off" if n == 0 else _seconds(n)) for n in timer_choices()
        ]
        self.fields["pauses"].choices = [(n, str(n)) for n in PAUSE_COUNT_CHOICES]  # type: ignore[attr-defined]  # a ChoiceField
        self.fields["pause_seconds"].choices = [(n, _seconds(n)) for n in pause_seconds_choices()]  # type: ignore[attr-defined]  # a ChoiceField

    def timer_spec(self) -> TimerSpec:
        from ..actions import TimerSpec

        return TimerSpec(
            seconds=self.cleaned_data.get("timer") or 0,
            pauses=self.cleaned_data.get("pauses", 2),
            pause_seconds=self.cleaned_data.get("pause_seconds") or 60,
        )

    def seat_specs(self) -> list[SeatSpec]:
        from ..actions import SeatSpec

        return [SeatSpec(Seat.Kind.HUMAN)] + [
            SeatSpec(Seat.Kind.OPEN) for _ in range(self.seat_count() - 1)
        ]


class _SharedFields(dict):
    """A form class's fields, which each of its forms uses as they are (deep-copying returns them)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _SharedFields:
        return self


class _ParametersMetaclass(DeclarativeFieldsMetaclass):
    def __new__(mcs, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> type:
        form_class = super().__new__(mcs, name, bases, attrs)
        form_class.base_fields = _SharedFields(form_class.base_fields)  # type: ignore[attr-defined]
        return form_class


class ParametersForm(forms.BaseForm, metaclass=_ParametersMetaclass):
    """An action's parameters: parsed, never rendered, so its forms share their class's fields. A form
    deep-copies them so that a page may change one of its own: 13 of a roll's 44 µs of parsing, 62 of
    a move's 134."""


class VersionForm(ParametersForm):
    version = AsciiIntegerField(min_value=0, max_value=10**9)
    seat = AsciiIntegerField(min_value=0, max_value=3, required=False)


class MoveForm(VersionForm):
    colour = forms.ChoiceField(choices=[(c, c) for c in COLOURS])
    # The wire counts tokens from 0; a refusal names them as the board does, 1 to 4.
    index = AsciiIntegerField(
        min_value=0,
        max_value=3,
        error_messages={
            "min_value": "there is no such token (tokens are 1 to 4)",
            "max_value": "there is no such token (tokens are 1 to 4)",
        },
    )
    die = forms.CharField(max_length=5, required=False)
    pair = forms.BooleanField(required=False)

    def clean_die(self) -> int | str | None:
        value = (self.cleaned_data.get("die") or "").strip()
        if not value:
            return None
        if value == "total":
            return "total"
        die = parse_int(value, 1, 6)
        if die is not None:
            return die
        raise forms.ValidationError("A die is a number from 1 to 6, or “total”.")


class SeatForm(ParametersForm):
    seat = AsciiIntegerField(min_value=0, max_value=3)
    kind = forms.ChoiceField(choices=[("computer", "Computer"), ("open", "Open seat")])
    level = forms.ChoiceField(choices=LEVELS, required=False)


class SeedForm(ParametersForm):
    seat = AsciiIntegerField(min_value=0, max_value=3)
    seed = forms.CharField(max_length=64)


class SeatIndexForm(ParametersForm):
    seat = AsciiIntegerField(min_value=0, max_value=3)


class OptionalSeatForm(ParametersForm):
    seat = AsciiIntegerField(min_value=0, max_value=3, required=False)


class ChatForm(ParametersForm):
    text = forms.CharField(max_length=2000, strip=False)  # the service cleans and limits it to 200


class ReportForm(ParametersForm):
    message = AsciiIntegerField(min_value=1, max_value=2**63 - 1)
    reason = forms.CharField(max_length=200, required=False)


class RoundForm(ParametersForm):
    """`?round=` of a record, a replay or a verification: a round number, or none (the latest)."""

    round = AsciiIntegerField(min_value=1, max_value=10**6, required=False)
