"""ASGI entry: plain HTTP to Django, WebSockets through the session/auth stack and an Origin check."""

import gc
import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludopat.settings")
# Django must be set up before the routing imports models through the consumers.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from games import engine  # noqa: E402


def sockets(routes: list[Any]) -> Any:
    """The WebSocket side of the site over `routes`: an Origin check, then the session and the user."""
    return AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(routes)))


# bench/live.py's floor, in the bench's processes only, adds its route to the site's (settings.BENCH_FLOOR).
if settings.BENCH_FLOOR:
    from games.web.bench_floor import websocket_urlpatterns
else:
    from .routing import websocket_urlpatterns
application = ProtocolTypeRouter(
    {"http": django_asgi_app, "websocket": sockets(websocket_urlpatterns)}
)

# Load what every process keeps until it ends before freezing it: the URLconf (and through it the views
# and everything they import) and the rule sets are otherwise loaded by the first request and move.
get_resolver().url_patterns  # noqa: B018  (the property imports the URLconf's modules)
engine.ruleset("classic")  # loads every rule set (games.engine.game._load_rulesets)

# Everything loaded so far (Django, the apps, the URLconf with the views, the rule sets) lives as long
# as the process: moved out of the collector's reach, a full collection no longer walks it. Measured by bench/live.py:
# full collections had paused the whole process for about 100 ms every few seconds under load, which
# alone set the p99 of a move reaching the boards.
gc.freeze()
