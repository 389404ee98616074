"""The web server behind ``drill serve``: textual-serve's server, made safe to leave running.

textual-serve 1.1 starts each tab's process through a shell, ends it only by asking it to
quit (a process that does not answer stays forever), lets SIGTERM wait up to 60 s for open
websockets, and accepts a websocket from any page. Here each tab's ``drill`` is started
without a shell in its own session, is stopped (quit, then SIGTERM, then SIGKILL) when the tab
closes or the server stops (on Linux even when the server is killed outright), and a websocket whose ``Origin`` is another site is refused before
anything is started. Imported only by ``drill serve``: aiohttp costs ~150 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import signal
import sys

from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from drill.cli.addresses import same_origin

# How long a tab's app has to quit by itself, then to end after SIGTERM: together they stay
# under the 2 s a stopped server may take.
QUIT_GRACE_S = 1.0
TERM_GRACE_S = 0.5
PR_SET_PDEATHSIG = 1


def _until_the_server_ends():
    """What a tab's process runs between fork and exec, on Linux: ask the kernel for SIGTERM
    when the server dies, even by SIGKILL, which no shutdown code sees. libc is loaded here,
    before the fork: the child may take no lock (an import) before exec."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl
    server = os.getpid()

    def arm() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != server:  # the server died before the request took effect
            os._exit(1)

    return arm


class TabProcess(AppService):
    """One tab's ``drill``: no shell between, its own session (a Ctrl+C typed at the server
    reaches only the server, which then ends each tab in order), and a stop that always ends."""

    def __init__(self, argv: list[str], **kwargs) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv
        self._stopping: asyncio.Task[None] | None = None

    async def _open_app_process(self, width: int = 80, height: int = 24):
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
            preexec_fn=_until_the_server_ends(),
        )
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Stop once, however many callers (the tab's handler, the server's shutdown) ask."""
        if self._process is None:
            return
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        process = self._process
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        if process.returncode is None:
            await self.send_meta({"type": "quit"})
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), QUIT_GRACE_S)
        for sig, grace in ((signal.SIGTERM, TERM_GRACE_S), (signal.SIGKILL, None)):
            if process.returncode is not None:
                break
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)  # its own session: the group is its id
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), grace)
        if self._task is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._task, TERM_GRACE_S)
            self._task = None


class DrillServer(Server):
    """textual-serve's server with drill's tab processes, origin check and prompt shutdown."""

    def __init__(
        self, argv: list[str], *, host: str, port: int, title: str, messages: dict[str, str]
    ) -> None:
        super().__init__(shlex.join(argv), host=host, port=port, title=title)
        self.argv = argv
        self.own_url = self.public_url
        self.messages = messages  # key -> text, in the user's language
        self.tabs: set[tuple[web.WebSocketResponse, TabProcess]] = set()

    def _say(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    async def on_startup(self, app: web.Application) -> None:
        self._say(self.messages["open"])  # only once the port is bound

    async def on_shutdown(self, app: web.Application) -> None:
        await asyncio.gather(*(self._end_tab(ws, tab) for ws, tab in list(self.tabs)))

    async def _end_tab(self, websocket: web.WebSocketResponse, tab: TabProcess) -> None:
        await tab.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(code=WSCloseCode.GOING_AWAY), TERM_GRACE_S)

    def serve(self, debug: bool = False) -> None:
        """textual-serve's ``serve`` with a short shutdown: open tabs are ended by
        ``on_shutdown``, so nothing is left for aiohttp's 60 s default to wait for."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.request_exit)
        web.run_app(
            self._make_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=lambda *args: None,
            shutdown_timeout=TERM_GRACE_S,
            access_log=None,
        )

    async def handle_index(self, request: web.Request):
        """The page, pointing its websocket at the address the browser used (a wildcard
        bind's own address, 0.0.0.0, is no address a browser can reach)."""
        reached = f"http://{request.host}"
        # read by the template below before any other request runs: no await in between
        self.public_url = reached if same_origin(reached, self.host, self.port) else self.own_url
        page = await super().handle_index(request)
        if isinstance(page, web.Response) and page.text and "<title>" not in page.text:
            import html

            named = f"<head>\n    <title>{html.escape(self.title)}</title>"
            page.text = page.text.replace("<head>", named, 1)  # the tab is named, not blank
        return page

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        # Browsers always send Origin on a websocket; a client without one is a program on a
        # machine that can reach the port, which could run drill or read its files anyway.
        origin = request.headers.get("Origin")
        if origin is not None and not same_origin(origin, self.host, self.port):
            self._say(self.messages["refused"].format(origin=origin))
            raise web.HTTPForbidden(text="cross-origin websocket refused\n")
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        await websocket.prepare(request)
        tab = TabProcess(
            self.argv,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.tabs.add((websocket, tab))
        try:
            await tab.start(width, height)
            await self._process_messages(websocket, tab)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception:  # a tab's failure is logged and ends only that tab
            logging.getLogger("textual-serve").exception("tab failed")
        finally:
            await tab.stop()
            self.tabs.discard((websocket, tab))
        return websocket
