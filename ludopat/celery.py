"""The Celery app: Redis broker from settings, tasks discovered in each app's tasks.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludopat.settings")

app = Celery("ludopat")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
