"""Django's admin finds games' pages here (autodiscover imports `<app>.admin`); they are
games/web/admin/, and the scheduled series' games/web/series_admin.py."""

from games.web import admin, series_admin  # noqa: F401
