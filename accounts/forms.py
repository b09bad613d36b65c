from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


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
