"""A database made by an older release migrates forward and its ledger still checks clean.

An empty PostgreSQL database of its own (not the session's test database, which stays at today's
schema for every other test) is migrated to a fixed older set of migrations, filled through the
historical models of that state with what a live site holds (accounts and wallets, a finished staked
game with its escrow paid out and one in play, rounds and results, a chat message and reports of it and
of a player, moderators' audit entries), then migrated to the current leaves. `check_ledger` must find
nothing wrong, and every row must read back through today's models.

The rows are written with the historical models only, so the test holds whichever app a model has
moved to since (ChatReport, say, keeping its table); reading back finds today's model by its table.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from django.apps import apps as current_apps
from django.conf import settings
from django.core.management import call_command
from django.db import connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
pytestmark = pytest.mark.skipif(
    not ON_POSTGRES,
    reason="needs PostgreSQL (DATABASE_URL): the migrations' triggers (an append-only audit log, a "
    "ledger balanced at commit) exist only there",
)

# The leaf migration of every installed app at commit 38c11c0 (the 'from' state: a site deployed then).
# Fixed on purpose: later migrations are what this test carries the rows through.
LEAVES_AT_38C11C0 = [
    ("accounts", "0009_banned_accounts_index"),
    ("admin", "0003_logentry_add_action_flag_choices"),
    ("auth", "0012_alter_user_first_name_max_length"),
    ("axes", "0010_accessattemptexpiration"),
    ("contenttypes", "0002_remove_content_type_name"),
    ("games", "0012_round_how"),
    ("leaderboard", "0005_round_how_from_results"),
    ("sessions", "0001_initial"),
]

ALIAS = "forward_migration"
STAKE = 100
GRANT = 1000
RAKE = 10  # of the finished staked game's pot of 200
FINISHED_AT = datetime(2026, 11, 2, 18, 30, tzinfo=UTC)


class EverythingThere:
    """A database router sending every ORM read and write to the migrated database: the migrations'
    data steps and management commands use the default manager, which asks the router."""

    def db_for_read(self, model, **hints):
        return ALIAS

    def db_for_write(self, model, **hints):
        return ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True


@pytest.fixture
def empty_database(django_db_modify_db_settings, django_db_blocker) -> Iterator[str]:
    """A new, empty PostgreSQL database next to the test database, as connection alias ALIAS;
    dropped afterwards. No pool: its connection closes when the test is done with it."""
    conf = copy.deepcopy(connections["default"].settings_dict)
    base = connections["default"].creation._get_test_db_name()
    conf["NAME"] = f"{base}_forward"[:63]
    conf.get("OPTIONS", {}).pop("pool", None)
    connections.settings[ALIAS] = conf
    wrapper = connections[ALIAS]
    with django_db_blocker.unblock():
        with wrapper._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{conf["NAME"]}" WITH (FORCE)')
            cursor.execute(f'CREATE DATABASE "{conf["NAME"]}"')
        try:
            yield ALIAS
        finally:
            wrapper.close()
            with wrapper._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{conf["NAME"]}" WITH (FORCE)')
            del connections[ALIAS]
            del connections.settings[ALIAS]


def write_live_site(apps, db: str) -> dict[str, object]:
    """What a deployed site holds, written with the models of the migration state `apps`: the ledger
    exactly as its services post it (grants, stakes, a payout with the house's cut)."""
    User = apps.get_model("accounts", "User")
    Account = apps.get_model("accounts", "LedgerAccount")
    Txn = apps.get_model("accounts", "LedgerTransaction")
    Entry = apps.get_model("accounts", "LedgerEntry")
    AuditLog = apps.get_model("accounts", "AuditLog")
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Action = apps.get_model("games", "Action")
    Round = apps.get_model("games", "Round")
    ChatMessage = apps.get_model("games", "ChatMessage")
    ChatReport = apps.get_model("games", "ChatReport")
    Result = apps.get_model("leaderboard", "Result")
    Standing = apps.get_model("leaderboard", "Standing")

    def post(kind: str, reason: str, legs, *, game=None, closes=None):
        made = Txn.objects.using(db).create(kind=kind, reason=reason, game=game, closes=closes)
        for account, amount in legs:
            after = None
            if account.kind in ("wallet", "escrow"):
                account.balance += amount
                account.save(using=db, update_fields=["balance"])
                after = account.balance
            Entry.objects.using(db).create(
                transaction=made, account=account, amount=amount, balance_after=after
            )

    with transaction.atomic(using=db):
        source, _ = Account.objects.using(db).get_or_create(kind="source")  # 0002 made it
        house, _ = Account.objects.using(db).get_or_create(kind="house")
        ana, ben, cleo = (
            User.objects.using(db).create(username=name, password="!")
            for name in ("ana", "ben", "cleo")
        )
        moderator = User.objects.using(db).create(username="mod", password="!", is_staff=True)
        wallets = {}
        for user in (ana, ben, cleo, moderator):
            wallets[user.pk] = Account.objects.using(db).create(kind="wallet", user=user)
            post("grant", "Welcome grant", [(source, -GRANT), (wallets[user.pk], GRANT)])

        def staked_game(game_id: str, status: str, host, guest):
            game = Game.objects.using(db).create(
                id=game_id, mode="friends", ruleset="classic", status=status, owner=host,
                stake=STAKE, players=[["red"], ["yellow"]], server_seed="a" * 64,
                server_seed_sha256="b" * 64, version=3, started=FINISHED_AT,
            )  # fmt: skip
            seats = [
                Seat.objects.using(db).create(
                    game=game, index=i, colours=[colour], kind="human", user=user
                )
                for i, (user, colour) in enumerate([(host, "red"), (guest, "yellow")])
            ]
            escrow = Account.objects.using(db).create(kind="escrow", game=game)
            for user in (host, guest):
                post("stake", f"Stake in {game_id}", [(wallets[user.pk], -STAKE), (escrow, STAKE)],
                     game=game)  # fmt: skip
            return game, seats, escrow

        won, won_seats, escrow = staked_game("stakedwon000000000000001", "finished", ana, ben)
        post("payout", "Ana won", [(escrow, -2 * STAKE), (wallets[ana.pk], 2 * STAKE - RAKE),
             (house, RAKE)], game=won, closes=escrow)  # fmt: skip
        won.finished = FINISHED_AT
        won.result_places = [0, 1]
        won.save(using=db)
        playing, _, _ = staked_game("stakedplay00000000000001", "playing", cleo, ben)

        Action.objects.using(db).create(game=won, round=1, seq=1, kind="create", text="Created")
        Action.objects.using(db).create(
            game=won, round=1, seq=2, seat=won_seats[0], kind="roll", data={"roll": [6]},
            auto="timeout", text="Ana rolled a 6",
        )  # fmt: skip
        finished_round = Round.objects.using(db).create(
            game=won, number=1, public_id="replay-staked-1", players=[["red"], ["yellow"]],
            server_seed="a" * 64, client_seed="ab", places=[0, 1], how="won",
        )  # fmt: skip
        for seat, user, place, points, coins in [
            (0, ana, 1, 10, 2 * STAKE - RAKE - STAKE),
            (1, ben, 2, 0, -STAKE),
        ]:
            Result.objects.using(db).create(
                round=finished_round, seat_index=seat, user=user, name=user.username, place=place,
                players=2, points=points, ruleset="classic", against_people=True, coins=coins,
                how="won", counted=True, finished_at=FINISHED_AT,
            )  # fmt: skip
        Standing.objects.using(db).create(
            user=ana, ruleset="classic", board="people", period="all", start="2000-01-01",
            points=10, games=1, wins=1, coins=2 * STAKE - RAKE - STAKE, reached_at=FINISHED_AT,
        )  # fmt: skip

        message = ChatMessage.objects.using(db).create(
            game=won, seat=won_seats[1], user=ben, name="ben", text="rude words"
        )
        ChatReport.objects.using(db).create(
            message=message, reported=ben, game=won, reporter=ana, reason="rude",
            outcome="hidden", resolved_by=moderator, resolved_at=FINISHED_AT, note="hidden",
        )  # fmt: skip
        ChatReport.objects.using(db).create(reported=ben, game=won, reporter=cleo, reason="cheats")
        for action, reason in [("hide_message", "rude"), ("mute", "rude again")]:
            AuditLog.objects.using(db).create(
                moderator=moderator, action=action, user=ben, game_id=won.pk, reason=reason,
                before={"muted_until": None}, after={"muted_until": "2026-11-03T18:30:00Z"},
            )  # fmt: skip
    return {"won": won.pk, "playing": playing.pk, "ana": ana.pk, "ben": ben.pk}


def current_model(table: str):
    """Today's model of `table`, in whichever app it lives now."""
    (model,) = [
        m for m in current_apps.get_models() if m._meta.db_table == table and not m._meta.proxy
    ]
    return model


def test_a_live_database_migrates_forward_and_its_ledger_checks_clean(empty_database):
    db = empty_database
    with override_settings(DATABASE_ROUTERS=[EverythingThere()]):
        executor = MigrationExecutor(connections[db])
        executor.migrate(LEAVES_AT_38C11C0)
        ids = write_live_site(executor.loader.project_state(LEAVES_AT_38C11C0).apps, db)

        executor.loader.build_graph()  # what is applied now, for the plan to today's leaves
        executor = MigrationExecutor(connections[db])  # reads what is applied afresh
        executor.migrate(executor.loader.graph.leaf_nodes())
        executor = MigrationExecutor(connections[db])
        assert not executor.migration_plan(executor.loader.graph.leaf_nodes())

        out = io.StringIO()
        call_command("check_ledger", stdout=out)  # raises CommandError listing any problem
        # 4 grants, 2 x 2 stakes and a payout; 2 legs each but the payout's 3.
        assert out.getvalue().strip() == "ledger ok: 9 transactions, 19 entries"

        Game = current_model("games_game")
        Result = current_model("leaderboard_result")
        Standing = current_model("leaderboard_standing")
        AuditLog = current_model("accounts_auditlog")
        ChatReport = current_model("games_chatreport")
        won = Game.objects.get(pk=ids["won"])
        assert (won.status, won.stake, won.seats.count()) == ("finished", STAKE, 2)
        assert won.rounds.get().how == "won"
        assert Game.objects.get(pk=ids["playing"]).status == "playing"
        assert sorted(Result.objects.values_list("name", "place", "coins")) == [
            ("ana", 1, STAKE - RAKE),
            ("ben", 2, -STAKE),
        ]
        assert Standing.objects.get(user_id=ids["ana"]).points == 10
        assert list(AuditLog.objects.order_by("pk").values_list("action", flat=True)) == [
            "hide_message",
            "mute",
        ]
        reports = ChatReport.objects.order_by("pk")
        assert [(r.reported_id, r.message_id is None, r.outcome) for r in reports] == [
            (ids["ben"], False, "hidden"),
            (ids["ben"], True, ""),
        ]
