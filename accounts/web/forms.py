from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError

from ..models import User
from ..users.sanctions import ban_notice


class ErrorsBesideFields:
    """After validation, each field with errors names them as its description (aria-describedby, ids
    as templates/partials/fields_beside_errors.html writes them) and the first such field takes the
    focus when the page loads, so a keyboard or a screen reader lands on what to fix."""

    fields: dict[str, forms.Field]

    def full_clean(self) -> None:
        super().full_clean()  # type: ignore[misc]
        first = True
        for name, field in self.fields.items():
            auto_id = self[name].auto_id  # type: ignore[index]
            if not auto_id or name not in self.errors:  # type: ignore[attr-defined]
                continue
            described = [f"{auto_id}_error"] + ([f"{auto_id}_helptext"] if field.help_text else [])
            field.widget.attrs["aria-describedby"] = " ".join(described)
            if first:
                field.widget.attrs["autofocus"] = True
                first = False


# Django's sentences, by error code, in the site's words.
SIGN_UP_ERRORS = {
    "unique": "That name is taken: choose another.",
    "invalid": "A name may hold only letters, digits and @ . + - _ (no spaces).",
    "password_mismatch": "The two passwords differ: type the same password twice.",
    "password_too_short": "Use at least 8 characters.",
    "password_too_common": "So many people use that password that it is easy to guess: choose another.",
    "password_entirely_numeric": "Use letters too, not only digits.",
    "password_too_similar": "Your password is too like your name or email: choose another.",
}
REQUIRED = {
    "username": "Choose the name other players will see.",
    "password1": "Choose a password.",
    "password2": "Type your password again.",
}


class SignUpForm(ErrorsBesideFields, UserCreationForm):
    email = forms.EmailField(
        required=False,
        label="Email (optional)",
        help_text="Only used to reset your password if you forget it.",
        error_messages={
            "invalid": "That doesn't look like an email address: check it, or leave it out."
        },
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        fields = self.fields
        fields[
            "username"
        ].help_text = "Up to 150 letters, digits and @ . + - _: the name others see."
        fields["password1"].help_text = "At least 8 characters, not all digits, not like your name."
        fields["password2"].label = "Password again"
        fields["password2"].help_text = ""
        for name, message in REQUIRED.items():
            fields[name].error_messages["required"] = message
        fields["username"].error_messages["invalid"] = SIGN_UP_ERRORS["invalid"]

    def add_error(self, field: str | None, error: Any) -> None:
        """Every error reaches the form here (field checks, the password validators, the unique
        name): Django's sentences become ours, by their code."""
        super().add_error(field, _in_our_words(error))


def _in_our_words(error: Any) -> Any:
    if not isinstance(error, ValidationError):
        return error
    if hasattr(error, "error_dict"):
        return ValidationError(
            {k: [_in_our_words(e) for e in v] for k, v in error.error_dict.items()}
        )
    return ValidationError(
        [
            ValidationError(SIGN_UP_ERRORS[e.code], code=e.code) if e.code in SIGN_UP_ERRORS else e
            for e in error.error_list
        ]
    )


class ReportPlayerForm(forms.Form):
    """A report from a player's page; the service cleans the reason and keeps 200 characters."""

    reason = forms.CharField(
        max_length=2000,
        required=False,
        error_messages={
            "null_characters_not_allowed": "Write the reason as plain text.",
            "max_length": "Say what happened in fewer words: the moderators read 200 characters.",
        },
    )


class LogInForm(AuthenticationForm):
    """Django's log-in form, except that a banned player whose password is right is told that they
    are banned, until when and why. A wrong password gets the usual answer, banned or not, so the form
    reveals no account that the password does not open."""

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                notice = self._ban_notice()
                if notice:
                    raise ValidationError(notice, code="banned") from None
            raise

    def _ban_notice(self) -> str:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not (username and password):
            return ""
        try:
            user = get_user_model()._default_manager.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            return ""
        return ban_notice(user) if user.check_password(password) else ""


class SocialForm(forms.Form):
    """A follow, unfollow, block or unblock press (the player is in the address). `game`: pressed in a
    finished game's panel, which the answer renders again; `next`: where a plain form goes back to."""

    game = forms.CharField(required=False, max_length=24)
    next = forms.CharField(required=False, max_length=2000)
