"""``drill serve``: the app reaches a browser tab, each tab's process ends with it, signals stop
the server and its tabs, and only this machine (and this server's own page) gets in.

The server runs for real in a subprocess; a tab is an aiohttp websocket speaking textual-serve's
protocol, or Debian's Chromium driven through its DevTools protocol."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from drill.i18n import tr
from tests.helpers import ROOT, run_drill

HOME_TEXT = tr("home-reference", "en")  # a line of the home screen's menu
ARTIFACTS = Path(os.environ.get("DRILL_ARTIFACTS", ROOT / "tests" / "artifacts"))
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stat(pid: int | str) -> list[str]:
    """State, parent, … of a process from /proc (no psutil needed); [] once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def alive(pid: int) -> bool:
    return _stat(pid)[:1] not in ([], ["Z"])  # a zombie has ended, only not been reaped


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    pids = (int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit())
    return [child for child in pids if _stat(child)[1:2] == [str(pid)] and alive(child)]


def wait_until(check, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


@contextlib.contextmanager
def serving(*args: str):
    """``drill serve`` on a free loopback port, once its page answers; stopped with Ctrl+C
    (SIGINT) at the end if the test has not stopped it. Its output is then ``.output``."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "drill", "serve", "--port", str(port), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    def answers() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as reply:
                return "roofline-drill" in reply.read().decode("utf-8")
        except OSError:
            return server.poll() is not None

    try:
        assert wait_until(answers, 30) and server.poll() is None, server.communicate()
        yield server, port
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)
        server.output = server.communicate(timeout=20)


async def open_tab(port: int, origin: str | None = None):
    """A websocket as textual-serve's page opens it, sized as the page would size it."""
    import aiohttp

    session = aiohttp.ClientSession()
    headers = {"Origin": origin or f"http://127.0.0.1:{port}"}
    try:
        ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers)
    except BaseException:
        await session.close()
        raise
    await ws.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
    return session, ws


async def screen_text(ws, wanted: str, seconds: float = 30) -> str:
    """What the tab's frames have drawn, without escape sequences, once ``wanted`` shows."""
    import aiohttp

    drawn = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = await ws.receive(timeout=1)
        except asyncio.TimeoutError:
            continue
        if message.type != aiohttp.WSMsgType.BINARY:
            break
        drawn += message.data
        if wanted in ESCAPES.sub("", drawn.decode("utf-8", "replace")):
            break
    return ESCAPES.sub("", drawn.decode("utf-8", "replace"))


# -- without a server ---------------------------------------------------------------------------
def test_serve_without_the_extra_says_how_to_install_it():
    code = (
        "import sys; sys.modules['textual_serve'] = None\n"
        "from drill.cli.main import main\nsys.exit(main(['serve']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 2
    assert "pip install 'roofline-drill[web]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_only_loopback_addresses_go_without_public():
    from drill.cli.addresses import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.5", "::"])
def test_an_address_other_machines_reach_is_refused_without_public(host):
    result = run_drill("serve", "--host", host, "--port", str(free_port()))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr  # one line
    assert f"{host} is not loopback" in result.stderr and "--public" in result.stderr


def test_the_refusal_is_in_chinese_too():
    result = run_drill("--lang", "zh", "serve", "--host", "0.0.0.0")
    assert result.returncode == 2
    assert "不是本机回环地址" in result.stderr and "--public" in result.stderr


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1", True),
        ("http://localhost:8000", "127.0.0.1", True),  # the same machine by another name
        ("http://[::1]:8000", "127.0.0.1", True),
        ("http://127.0.0.1:8001", "127.0.0.1", False),  # another server on this machine
        ("https://127.0.0.1:8000", "127.0.0.1", False),
        ("http://evil.example:8000", "127.0.0.1", False),  # a DNS name rebound to 127.0.0.1
        ("null", "127.0.0.1", False),  # a sandboxed frame or a file:// page
        ("http://192.168.1.5:8000", "192.168.1.5", True),
        ("http://localhost:8000", "192.168.1.5", False),
        ("http://192.168.1.5:8000", "0.0.0.0", True),  # a wildcard bind: any address of it
        ("http://evil.example:8000", "0.0.0.0", False),
    ],
)
def test_only_the_servers_own_page_is_its_origin(origin, host, allowed):
    from drill.cli.addresses import same_origin

    assert same_origin(origin, host, 8000) is allowed


# -- a real server, a tab as a websocket ----------------------------------------------------------
@pytest.mark.serial
@pytest.mark.slow
def test_a_tab_gets_the_app_and_its_process_ends_with_the_tab():
    with serving() as (server, port):

        async def visit() -> tuple[str, list[int]]:
            session, ws = await open_tab(port)
            try:
                shown = await screen_text(ws, HOME_TEXT)
                running = children(server.pid)
            finally:
                await ws.close()
                await session.close()
            return shown, running

        shown, running = asyncio.run(visit())
        assert HOME_TEXT in shown, shown[-2000:]
        assert len(running) == 1  # the tab's own drill
        assert wait_until(lambda: not children(server.pid)), children(server.pid)
        assert server.poll() is None  # the server keeps serving other tabs
    assert "warning" not in server.output[1]  # loopback: nothing to warn about


@pytest.mark.serial
@pytest.mark.slow
def test_public_serves_every_address_with_the_warning():
    with serving("--host", "0.0.0.0", "--public") as (server, port):
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
    # the page's websocket goes where the browser went, not to 0.0.0.0
    assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page
    assert "<title>roofline-drill — GPU performance reasoning, drilled</title>" in page
    assert "warning: bound to 0.0.0.0, not loopback" in server.output[1]


@pytest.mark.serial
@pytest.mark.slow
def test_another_sites_page_is_refused_and_starts_nothing():
    import aiohttp

    with serving() as (server, port):

        async def visit() -> int:
            try:
                session, ws = await open_tab(port, origin="http://evil.example")
            except aiohttp.WSServerHandshakeError as refused:
                return refused.status
            await session.close()
            return 101

        assert asyncio.run(visit()) == 403
        assert children(server.pid) == []
    assert "refused a connection from http://evil.example" in server.output[1]


@pytest.mark.serial
@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl+C"])
def test_a_signal_stops_the_server_and_its_tabs_with_a_tab_open(sig):
    with serving() as (server, port):

        async def stop_with_a_tab_open() -> tuple[list[int], bool]:
            session, ws = await open_tab(port)
            try:
                assert HOME_TEXT in await screen_text(ws, HOME_TEXT)
                tabs = children(server.pid)
                sent = time.monotonic()
                server.send_signal(sig)
                # 2 s by design (serving.py's grace periods); 5 s leaves room on a busy machine,
                # far below the 30 s and more that an open tab used to hold the server.
                await asyncio.to_thread(wait_until, lambda: server.poll() is not None, 5)
                took = time.monotonic() - sent
            finally:
                await ws.close()
                await session.close()
            return tabs, took

        tabs, took = asyncio.run(stop_with_a_tab_open())
        assert server.poll() == 0, f"still running {took:.1f} s after {sig.name}"
        assert len(tabs) == 1 and not alive(tabs[0])


@pytest.mark.serial
@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux parent-death signal")
def test_a_tab_ends_even_when_the_server_is_killed_outright():
    with serving() as (server, port):

        async def kill_with_a_tab_open() -> tuple[list[int], bool]:
            session, ws = await open_tab(port)
            try:
                assert HOME_TEXT in await screen_text(ws, HOME_TEXT)
                tabs = children(server.pid)
                server.kill()  # SIGKILL: no shutdown code of the server runs
                server.wait(timeout=10)
                ended = await asyncio.to_thread(wait_until, lambda: not any(map(alive, tabs)))
            finally:
                await ws.close()
                await session.close()
            return tabs, ended

        tabs, ended = asyncio.run(kill_with_a_tab_open())
        assert len(tabs) == 1 and ended, tabs


# -- a real browser: Debian's Chromium through its DevTools protocol -----------------------------
# textual.js keeps its xterm.js terminal in a local variable and draws it on a canvas, so the
# page's text is read from the terminal's own buffer: this hook, run before the page's scripts,
# notes the terminal when textual.js's client object stores it (the only object with both).
NOTE_TERMINAL = """Object.defineProperty(Object.prototype, "terminal", {configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true,
                                             enumerable: true});
    if ("websocket_url" in this) { window.drillTerminal = value; delete Object.prototype.terminal; }
  }});"""
READ_TERMINAL = """(() => { const t = window.drillTerminal; if (!t) return "";
  const rows = [];
  for (let i = 0; i < t.rows; i++) {
    const line = t.buffer.active.getLine(i); rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n"); })()"""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip(
            "Chromium is not installed: apt-get install -y chromium (.ci/run installs it when "
            "apt can), then this test opens drill serve's page in it"
        )
    return found


class DevTools:
    """Just enough of Chromium's DevTools protocol: one call at a time, events skipped."""

    def __init__(self, ws) -> None:
        self.ws, self.calls, self.session = ws, 0, None

    async def __call__(self, method: str, **params) -> dict:
        self.calls += 1
        message = {"id": self.calls, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        await self.ws.send_json(message)
        while (reply := await self.ws.receive_json(timeout=30)).get("id") != self.calls:
            pass
        assert "error" not in reply, (method, reply)
        return reply.get("result", {})

    async def text(self) -> str:
        reply = await self("Runtime.evaluate", expression=READ_TERMINAL, returnByValue=True)
        return reply["result"].get("value", "")

    async def wait_for(self, wanted: str, seconds: float = 60) -> str:
        deadline = time.monotonic() + seconds
        while wanted not in (shown := await self.text()) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return shown


@contextlib.contextmanager
def browser(profile: Path):
    """Headless Chromium on its own profile; yields its DevTools websocket address."""
    process = subprocess.Popen(
        [
            chromium(),
            "--headless",
            "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
            "--disable-gpu",
            "--no-first-run",
            "--window-size=1200,720",
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",  # Chromium picks a port and writes it down
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    active = profile / "DevToolsActivePort"

    def written() -> list[str]:
        return active.read_text().split() if active.exists() else []

    try:
        assert wait_until(lambda: len(written()) == 2, 60), "Chromium did not start"
        port, path = written()
        yield f"ws://127.0.0.1:{port}{path}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.serial
@pytest.mark.slow
def test_the_page_shows_the_app_in_chromium(tmp_path):
    """Open the page as a user would, read the home screen off it, press r for the quick
    reference; the screenshot stays in ARTIFACTS (tests/artifacts/ or $DRILL_ARTIFACTS)."""
    import aiohttp

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with serving() as (server, port), browser(tmp_path / "profile") as address:

        async def visit() -> tuple[str, str, float]:
            async with aiohttp.ClientSession() as session:
                ws = await session.ws_connect(address, max_msg_size=0)
                tools = DevTools(ws)
                tab = await tools("Target.createTarget", url="about:blank")
                attached = await tools(
                    "Target.attachToTarget", targetId=tab["targetId"], flatten=True
                )
                tools.session = attached["sessionId"]
                await tools("Page.enable")
                await tools("Page.addScriptToEvaluateOnNewDocument", source=NOTE_TERMINAL)
                opened = time.monotonic()
                await tools("Page.navigate", url=f"http://127.0.0.1:{port}/")
                home = await tools.wait_for(HOME_TEXT)
                took = time.monotonic() - opened
                shot = await tools("Page.captureScreenshot", format="png")
                (ARTIFACTS / "serve-home.png").write_bytes(base64.b64decode(shot["data"]))
                (ARTIFACTS / "serve-home.txt").write_text(
                    f"{home}\n\n(page opened to home screen: {took:.2f} s)\n", encoding="utf-8"
                )
                # A user clicks into the page first; a click here could pick a menu line.
                await tools("Emulation.setFocusEmulationEnabled", enabled=True)
                await tools("Runtime.evaluate", expression="window.drillTerminal.focus()")
                for kind in ("keyDown", "keyUp"):
                    await tools("Input.dispatchKeyEvent", type=kind, key="r", code="KeyR", text="r")
                reference = await tools.wait_for(tr("reference-bound", "en"))
                return home, reference, took

        home, reference, took = asyncio.run(visit())
        assert HOME_TEXT in home and tr("home-mock", "en") in home, home
        assert tr("reference-bound", "en") in reference, reference
        assert len(children(server.pid)) == 1  # the page's tab
