from django.urls import path

from . import desk_views

urlpatterns = [
    path("", desk_views.queue, name="desk"),
    path("reports/<int:report_id>/", desk_views.report, name="desk_report"),
]
