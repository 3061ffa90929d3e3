"""GNOME Shell end-to-end setup: tests here run on a headless GNOME Shell desktop.

scripts/test.sh runs this directory twice, on AD_DESKTOP_KIND=gnome-wayland and on
gnome-x11 (scripts/gnome-desktop-up.sh); tests/e2e/conftest.py's fixtures (cli, run,
fixture_app, calculator_app, ...) apply here too. Mark a test that only makes sense on one
of them with @pytest.mark.wayland_only or @pytest.mark.x11_only.
"""
import os

import pytest

import atspi_observer as obs

KIND = os.environ.get("AD_DESKTOP_KIND", "")


def pytest_configure(config):
    config.addinivalue_line("markers", "wayland_only: runs only on the GNOME Wayland desktop")
    config.addinivalue_line("markers", "x11_only: runs only on the GNOME X11 desktop")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "wayland_only" in item.keywords and KIND != "gnome-wayland":
            item.add_marker(pytest.mark.skip(reason="GNOME Wayland only"))
        if "x11_only" in item.keywords and KIND != "gnome-x11":
            item.add_marker(pytest.mark.skip(reason="GNOME X11 only"))


@pytest.fixture(scope="session")
def gnome_kind():
    """'gnome-wayland' or 'gnome-x11'."""
    if not KIND.startswith("gnome-"):
        pytest.exit("tests/e2e/gnome needs AD_DESKTOP_KIND=gnome-wayland or gnome-x11",
                    returncode=4)
    return KIND


@pytest.fixture(scope="session")
def shell_pid(gnome_kind):
    """The pid of the desktop's gnome-shell, from its AT-SPI registration."""
    apps = obs.wait_until(lambda: obs.apps_named("gnome-shell"), timeout=30.0,
                          what="gnome-shell on the AT-SPI bus")
    return obs.app_pid(apps[0])
