from django.contrib.auth import views as auth_views
from django.urls import path

import ludopat.converters  # noqa: F401  (registers <id>, <token>)

from . import two_factor_views, views, wallet_views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("wallet/", wallet_views.wallet, name="wallet"),
    path("wallet/top-up/", wallet_views.top_up, name="wallet_top_up"),
    path("login/", two_factor_views.LogInView.as_view(), name="login"),
    path("login/code/", two_factor_views.login_code, name="login_code"),
    path("two-factor/", two_factor_views.settings_page, name="two_factor"),
    path("two-factor/set-up/", two_factor_views.enrol, name="two_factor_enrol"),
    path("two-factor/recovery-codes/", two_factor_views.recovery_codes, name="two_factor_codes"),
    path("two-factor/off/", two_factor_views.turn_off, name="two_factor_off"),
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
