from django.urls import path

from . import challenge_views as views

urlpatterns = [
    path("u/<username:username>/challenge/", views.challenge, name="challenge"),
    path("u/<username:username>/invite/", views.invite, name="challenge_invite"),
    path("challenges/<id:challenge_id>/", views.page, name="challenge_page"),
    path("challenges/<id:challenge_id>/accept", views.accept, name="challenge_accept"),
    path("challenges/<id:challenge_id>/decline", views.decline, name="challenge_decline"),
    path("challenges/<id:challenge_id>/withdraw", views.withdraw, name="challenge_withdraw"),
]
