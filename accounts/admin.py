"""Django's admin finds accounts' pages here (autodiscover imports `<app>.admin`); they are
accounts/web/admin.py."""

from accounts.web import admin  # noqa: F401
