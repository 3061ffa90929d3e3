"""agent-desktop mcp against GNOME Calculator through the official MCP client SDKs.

tests/mcp/calc_click.mjs snapshots the calculator, finds the 7 and clicks it over MCP (both
eras); the display is then read here through pyatspi, not through agent-desktop. The
protocol tests (schemas, cancellation, limits, end of input) are tests/mcp/mcp.test.mjs.
"""
import json
import os
import subprocess

import pytest

import atspi_observer as obs
from test_actions import _calc_display, _clear_button

MCP_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "mcp")


@pytest.fixture(scope="session")
def mcp_clients():
    """The pinned SDKs (npm ci from tests/mcp/package-lock.json)."""
    subprocess.run(["bash", os.path.join(MCP_DIR, "install.sh")], check=True, timeout=600,
                   stdin=subprocess.DEVNULL)
    return MCP_DIR


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_mcp_click_seven_on_the_calculator(cli, calculator_app, mcp_clients, era):
    display = _calc_display(calculator_app)
    if obs.text_of(display) != "":
        cli.ok("click", _clear_button(cli))
        obs.wait_until(lambda: obs.text_of(display) == "", what="an empty display")
    env = cli.environment({"AD_BIN": cli.binary})
    # The SDK's stdio transport passes the server's stderr through to the script's.
    out = subprocess.run(["node", os.path.join(mcp_clients, "calc_click.mjs"), era],
                         capture_output=True, text=True, env=env, timeout=120,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    # The server's and its children's stderr: an ASan build's reports land here.
    assert "Sanitizer" not in out.stderr and "runtime error:" not in out.stderr, out.stderr
    result = json.loads(out.stdout)
    snap = result["snapshot"]
    assert snap["ok"] is True and snap["command"] == "snapshot", snap
    assert snap["data"]["ref_count"] > 0
    assert result["click"]["ok"] is True, result["click"]
    # The effect, read independently of agent-desktop.
    obs.wait_until(lambda: obs.text_of(display) == "7", what="7 in the calculator's display")
