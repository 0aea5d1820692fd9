"""Helpers for the web UI tests: the app served on a free 127.0.0.1 port, and headless Chromium driven by Selenium.

Chromium and chromedriver come from Debian (``apt-get install chromium
chromium-driver``); nothing is downloaded at run time (Selenium Manager is
bypassed by giving the driver's path).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
#: Where the browser tests save their screenshots (a test artifact; ``cache/`` is not committed).
SCREENSHOTS = Path(os.environ.get("NL2SPARQL_UI_SCREENSHOTS") or REPO / "cache" / "ui-screenshots")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
#: Headless, and nothing that calls Google's hosts in the background.
CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions", "--lang=en-US")


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (``None`` when they can)."""
    for name, path in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER)):
        if not Path(path).is_file():
            return f"{name} not found (install Debian's chromium and chromium-driver: apt-get install -y chromium " \
                   f"chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def served(ctx) -> Iterator[str]:
    """Serve the app for ``ctx`` on 127.0.0.1 and a free port; yields its URL, then stops it."""
    from nl2sparql.ui import build_app, launch

    app = build_app(ctx)
    _, url, _ = launch(app, host="127.0.0.1", port=free_port(), block=False, quiet=True)
    try:
        yield url
    finally:
        app.close()


class Browser:
    """Headless Chromium with its network requests recorded (Chromium's performance log)."""

    def __init__(self, downloads: Path, width: int = 1400, height: int = 1100):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROME_FLAGS:
            options.add_argument(flag)
        self.profile = tempfile.mkdtemp(prefix="nl2sparql-chrome-")
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={width},{height}")
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                                  "download.prompt_for_download": False})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior",
                                    {"behavior": "allow", "downloadPath": str(downloads)})
        self.downloads = Path(downloads)
        self.requests: list[dict] = []

    def record(self) -> list[dict]:
        """Every request made since the browser started: ``{"url", "document"}`` (the page that asked)."""
        for entry in self.driver.get_log("performance"):
            event = json.loads(entry["message"])["message"]
            params = event.get("params", {})
            if event["method"] == "Network.requestWillBeSent":
                self.requests.append({"url": params["request"]["url"], "document": params.get("documentURL", "")})
            elif event["method"] == "Network.webSocketCreated":
                self.requests.append({"url": params["url"], "document": ""})
        return self.requests

    def shot(self, name: str, full: bool = True) -> Path:
        """Save a screenshot of the page (the whole page with ``full``) as ``SCREENSHOTS/name.png``."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        size = self.driver.get_window_size()
        self.driver.execute_script("window.scrollTo(0, 0)")
        if full:
            height = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(size["width"], min(max(height + 40, size["height"]), 6000))
            time.sleep(0.3)
        self.driver.save_screenshot(str(path))
        if full:
            self.driver.set_window_size(size["width"], size["height"])
        return path

    def quit(self) -> None:
        """Close the browser and remove its profile."""
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


def off_host(requests: list[dict], host: str = "127.0.0.1") -> list[str]:
    """Requests that left ``host``: network URLs elsewhere, and anything the page asked for that is not local."""
    bad = []
    for req in requests:
        parts = urlsplit(req["url"])
        network = parts.scheme in ("http", "https", "ws", "wss")
        from_page = req["document"].startswith(("http://", "https://"))
        if network and parts.hostname != host:
            bad.append(req["url"])
        elif from_page and not network and parts.scheme not in ("data", "blob", "about"):
            bad.append(req["url"])
    return bad


def scripted_agent(question, kb=None):
    """A stand-in for ``api.agent_stream``: three :class:`~nl2sparql.api.AgentStep` s, the last with rows
    (and text to escape)."""
    from nl2sparql import api

    query = "SELECT ?e WHERE { ?e a elita:Emotion }"
    yield api.AgentStep("plan", {"plan": {"patterns": ["EMOTION_LEXICON"]}}, {"question": question})
    time.sleep(0.3)
    yield api.AgentStep("generate", {"current": {"sparql": query}}, {"question": question, "current": {"sparql": query}})
    time.sleep(0.3)
    rows = api.execute(query, kb=kb).to_dict()
    current = {"sparql": query, "rows": rows}
    yield api.AgentStep("execute", {"current": current, "note": "<b>done</b>"}, {"question": question, "current": current})
