from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError

from .models import User
from .sanctions import ban_notice


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False,
        help_text="Optional. Only used to reset your password if you forget it.",
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


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

    def clean(self):
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
