"""Django's admin finds games' pages here (autodiscover imports `<app>.admin`); they are
games/web/admin/."""

from games.web import admin  # noqa: F401
