"""Starting real ``nl2sparql mcp serve`` processes for tests, and talking to them with the SDK's client.

The SDK's client is async; tests stay synchronous by running it in an anyio
blocking portal (an event loop in a thread) that lives as long as the
session-scoped server fixtures.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import anyio

REPO = Path(__file__).resolve().parents[1]
NL2SPARQL = str(Path(sys.executable).parent / "nl2sparql")
#: The API key the test servers get: it must never appear in anything they answer.
SECRET = "sk-test-secret-7f3a9c1e5b"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A small, explicit environment for a server process (no KB or LLM settings leak in from the caller)."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "NL2SPARQL_LLM_CACHE": "off", "NL2SPARQL_CACHE": str(REPO / "cache"), "PYTHONUNBUFFERED": "1"}
    if os.environ.get("PYTHONPATH"):  # a checkout run from a shared environment: the server imports the same code
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    env.update(extra or {})
    return env


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 90.0) -> None:
    """Wait until ``port`` accepts connections; fail with the server's stderr if it exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the MCP server exited ({process.returncode}): {log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the MCP server did not listen on {port} within {timeout:g} s")


@contextmanager
def http_server(args: list[str], env: dict[str, str], cwd: Path, log: Path) -> Iterator[str]:
    """``nl2sparql mcp serve --transport http`` on a free port; yields its URL and always stops it."""
    port = free_port()
    with open(log, "w") as err:
        process = subprocess.Popen([NL2SPARQL, "mcp", "serve", "--transport", "http", "--port", str(port), *args],
                                   env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                   start_new_session=True)
    try:
        wait_for_port(port, process, log)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop_group(process)


def stop_group(process: subprocess.Popen, grace: float = 10.0) -> None:
    """SIGTERM the server (it stops its KB workers), then SIGKILL whatever is left of its process group."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def group_members(pgid: int) -> list[int]:
    """Live processes of process group ``pgid`` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def stdio_params(args: list[str], env: dict[str, str], cwd: Path):
    """How the SDK's stdio client starts ``nl2sparql mcp serve``."""
    from mcp import StdioServerParameters
    return StdioServerParameters(command=NL2SPARQL, args=["mcp", "serve", *args], env=env, cwd=str(cwd))


@contextmanager
def connected(portal, transport: str, target, log: Path) -> Iterator:
    """An SDK ``Client`` connected over ``transport`` (``stdio``: ``target`` are the server parameters;
    ``http``: its URL), entered and left in ``portal``."""
    from mcp import Client
    from mcp.client.stdio import stdio_client

    with open(log, "a") as errlog:
        source = stdio_client(target, errlog=errlog) if transport == "stdio" else target
        with portal.wrap_async_context_manager(Client(source, read_timeout_seconds=120)) as client:
            yield client


def gather(portal, client, calls: list[tuple[str, dict]]) -> list:
    """Run tool calls at once (one task each) and return their results in order."""
    async def run():
        results: list = [None] * len(calls)

        async def one(i: int, name: str, args: dict):
            results[i] = await client.call_tool(name, args)

        async with anyio.create_task_group() as group:
            for i, (name, args) in enumerate(calls):
                group.start_soon(one, i, name, args)
        return results
    return portal.call(run)


def text(result) -> str:
    """The text of a tool result's first content block."""
    return result.content[0].text if result.content else ""
