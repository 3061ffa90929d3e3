"""A long run leaves the app as it found it (issue 12, item 5): GTK 3's atk-bridge never
forgets a peer-to-peer connection a client opened to it (at-spi2-core 2.46, atk-adaptor/
bridge.c new_connection_cb), and each one it keeps costs it CPU on every later main-loop
iteration. Commands must not open one.

The app's own record is read, not agent-desktop's: ad-fixture's state line counts the GSources
in its main context (tests/fixture-app/main_loop_sources.c), where the bridge leaves one per
accepted connection. The count is read after an ordering canary (a pyatspi click), so every
command before it has been handled. The Increment clicks are checked in the fixture's count."""
from e2e_helpers import canary, fixture_ref, fixture_reset

ROUNDS = 40  # snapshot + find + click each: 120 commands


def test_many_commands_leave_the_apps_main_loop_as_they_found_it(cli, fixture_app):
    fixture_reset(fixture_app)
    increment = fixture_ref(cli, "inc_button")
    before = canary(fixture_app)
    for _ in range(ROUNDS):
        data = cli.ok("snapshot", "--app", "ad-fixture", "-i")
        assert data["ref_count"] > 0
        data = cli.ok("find", "--app", "ad-fixture", "--role", "button", "--name", "Increment",
                      "--first")
        assert data["match"] is not None
        cli.ok("click", increment)
    after = canary(fixture_app)
    assert after["count"] == before["count"] + ROUNDS, (before["count"], after["count"])
    # Before the fix every command left one or more sources behind (198 for these 120
    # commands); what GTK itself keeps for a while (a timer, an idle) is a handful.
    grown = after["main_loop_sources"] - before["main_loop_sources"]
    assert grown < 10, (before["main_loop_sources"], after["main_loop_sources"])
    fixture_reset(fixture_app)
