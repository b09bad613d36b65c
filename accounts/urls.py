from django.contrib.auth import views as auth_views
from django.urls import path

import ludopat.converters  # noqa: F401  (registers <id>, <token>)

from . import views, wallet_views
from .forms import LogInForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("wallet/", wallet_views.wallet, name="wallet"),
    path("wallet/top-up/", wallet_views.top_up, name="wallet_top_up"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            redirect_authenticated_user=True, authentication_form=LogInForm
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"
    ),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<token:uidb64>/<token:token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
