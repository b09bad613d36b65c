from django.urls import path

import ludopat.converters  # noqa: F401  (registers <id>, <token>)

from . import desk_views

urlpatterns = [
    path("", desk_views.queue, name="desk"),
    path("reports/<id:report_id>/", desk_views.report, name="desk_report"),
]
