"""Shell surfaces without GNOME Shell (X11 + openbox): status supported_surfaces stays the app
kinds (surfaces.md, "Check what is supported"), and open-system-surface / snapshot --surface
refuse every shell kind with INVALID_ARGS before anything is sent. The GNOME side is
tests/e2e/gnome/test_shell_surfaces.py."""
import pytest

from e2e_helpers import expect_error

APP_KINDS = ["window", "focused", "sheet", "alert", "menu"]


def test_supported_surfaces_are_the_app_kinds(cli):
    assert cli.ok("status")["supported_surfaces"] == APP_KINDS


@pytest.mark.parametrize("kind", ["action-center", "system-tray", "start-menu"])
def test_no_shell_kind_opens_or_reads(cli, kind):
    for argv in (["--headed", "open-system-surface", "--surface", kind],
                 ["open-system-surface", "--surface", kind],
                 ["snapshot", "--surface", kind]):
        err = expect_error(cli.run(*argv), "INVALID_ARGS")
        assert err["details"]["supported_surfaces"] == APP_KINDS, err
        assert err["details"]["requested_surface"] == kind, err
    err = expect_error(cli.run("--headed", "open-system-surface", "--surface", kind),
                       "INVALID_ARGS")
    assert "no shell surface" in err["suggestion"], err
