"""``nl2sparql mcp serve|config``: the CLI around the MCP server, its configuration, laziness and shutdown."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from pydantic import TypeAdapter, ValidationError
from typer.testing import CliRunner

from nl2sparql import api
from nl2sparql.cli.main import app
from nl2sparql.mcp import ServerConfig
from nl2sparql.mcp.server import error_message
from mcp_helpers import NL2SPARQL, SECRET, connected, free_port, group_members, server_env, stop_group, wait_for_port

runner = CliRunner()


def test_config_prints_a_desktop_entry_for_this_install(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    store = tmp_path / "store"
    store.mkdir()
    result = runner.invoke(app, ["mcp", "config", "--store", str(store), "--llm", "--llm-model", "gpt-x",
                                 "--timeout", "30", "--name", "liita"])
    assert result.exit_code == 0, result.output
    entry = json.loads(result.stdout)["mcpServers"]["liita"]
    assert entry["command"] == NL2SPARQL and Path(entry["command"]).is_absolute()
    assert entry["args"] == ["mcp", "serve", "--store", str(store.resolve()), "--timeout", "30", "--llm",
                             "--llm-model", "gpt-x"]
    assert entry["env"]["OPENAI_API_KEY"] == "<your API key>"
    assert Path(entry["env"]["NL2SPARQL_LLM_CACHE"]).is_absolute()
    assert SECRET not in result.output


def test_config_without_options_is_the_bare_command():
    result = runner.invoke(app, ["mcp", "config"], env={"NL2SPARQL_STORE": "", "NL2SPARQL_ENDPOINT": ""})
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"mcpServers": {"nl2sparql": {"command": NL2SPARQL, "args": ["mcp", "serve"]}}}


def test_the_desktop_command_really_starts_a_server(tmp_path):
    """What ``mcp config`` prints is what a host runs: start it and complete the MCP handshake."""
    from mcp import StdioServerParameters

    entry = json.loads(runner.invoke(app, ["mcp", "config"]).stdout)["mcpServers"]["nl2sparql"]
    params = StdioServerParameters(command=entry["command"], args=entry["args"], env=server_env(tmp_path),
                                   cwd=str(tmp_path))
    with start_blocking_portal() as portal, connected(portal, "stdio", params, tmp_path / "log") as client:
        assert client.server_info.name == "nl2sparql"
        assert client.instructions and "LiITA" in client.instructions


@pytest.mark.parametrize("args,message", [
    (["--transport", "sse"], "unknown transport 'sse' (use stdio or http)"),
    (["--max-rows", "5000"], "less than or equal to 1000"),
    (["--store", "/no/such/store", "--endpoint", "http://127.0.0.1:9/sparql"], "choose one KB"),
])
def test_serve_bad_options_are_one_line(args, message):
    result = runner.invoke(app, ["mcp", "serve", *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_serve_on_a_busy_port_is_one_line():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["mcp", "serve", "--transport", "http", "--port", str(port)])
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port" in result.output


def test_http_server_is_lazy_and_sigterm_leaves_no_process(tmp_path):
    """Nothing is opened before the first call (no KB worker), and SIGTERM stops the server and its workers."""
    port = free_port()
    log = tmp_path / "server.log"
    with open(log, "w") as err:
        server = subprocess.Popen([NL2SPARQL, "mcp", "serve", "--transport", "http", "--port", str(port)],
                                  env=server_env(tmp_path), cwd=tmp_path, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    try:
        wait_for_port(port, server, log)
        with start_blocking_portal() as portal, \
                connected(portal, "http", f"http://127.0.0.1:{port}/mcp", log) as client:
            assert len(portal.call(client.list_tools).tools) == 13
            assert group_members(server.pid) == [server.pid]  # no KB worker yet
            assert not portal.call(client.call_tool, "execute_sparql", {"sparql": "ASK { ?s ?p ?o }"}).is_error
            assert len(group_members(server.pid)) == 2  # the server and its query worker
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
        deadline = time.monotonic() + 5
        while group_members(server.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert group_members(server.pid) == []
        assert "Traceback" not in log.read_text()
    finally:
        stop_group(server)


# -- configuration and error lines (in process) ----------------------------------------------------
def test_server_config_checks_its_values():
    with pytest.raises(api.ConfigError, match="unknown translation mode"):
        ServerConfig(mode="magic")
    with pytest.raises(api.ConfigError, match="max rows"):
        ServerConfig(max_rows=0)
    with pytest.raises(api.ConfigError, match="timeout must be more than 0"):
        ServerConfig(kb=api.KBChoice(timeout=0))


def test_effective_config_hides_keys_and_url_credentials(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://user:{SECRET}@127.0.0.1:9/v1")
    monkeypatch.setenv("NL2SPARQL_LLM_MODEL", "m1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config = ServerConfig(kb=api.KBChoice(endpoint=f"https://reader:{SECRET}@liita.example/sparql", timeout=5))
    shown = config.effective()
    assert SECRET not in json.dumps(shown)
    assert shown["llm"] == {"configured": True, "model": "m1", "fast_model": "m1", "base_url": "http://127.0.0.1:9/v1",
                            "timeout": 60.0, "source": "environment"}
    assert shown["kb"]["endpoint"] == "https://liita.example/sparql"


def test_effective_config_says_why_no_llm(monkeypatch, tmp_path):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NL2SPARQL_LLM_MODEL", "NL2SPARQL_LLM_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    llm = ServerConfig().effective()["llm"]
    assert llm["configured"] is False and "NL2SPARQL_LLM_MODEL" in llm["reason"]


def test_llm_mode_without_an_llm_is_one_line(monkeypatch, tmp_path):
    from mcp import Client
    from nl2sparql.mcp import build_server

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NL2SPARQL_LLM_MODEL", "NL2SPARQL_LLM_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))

    async def call():
        async with Client(build_server(ServerConfig())) as client:
            return await client.call_tool("translate", {"question": "Quali verbi esprimono gioia?", "mode": "llm"})

    with start_blocking_portal() as portal:
        result = portal.call(call)
    assert result.is_error and result.content[0].text.startswith("no LLM configured: set OPENAI_API_KEY")


def _raised(exc: BaseException, wrapper: type[ToolError]) -> ToolError:
    try:
        try:
            raise exc
        except BaseException as inner:
            raise wrapper("Error executing tool t") from inner
    except ToolError as outer:
        return outer


def test_error_lines():
    assert error_message("t", _raised(api.DataError("the query is empty\n  really"), UnexpectedToolError)) \
        == "the query is empty really"
    internal = error_message("t", _raised(RuntimeError("boom"), UnexpectedToolError))
    assert internal == "t failed with an internal error (RuntimeError: boom)"
    try:
        TypeAdapter(int).validate_python("x")
    except ValidationError as bad:
        assert error_message("t", _raised(bad, ToolError)).startswith("invalid arguments for t: ")
        # a return value that fails its schema is our bug, not the caller's arguments
        assert "internal error" in error_message("t", _raised(bad, UnexpectedToolError))
    assert error_message("t", ToolError("Unknown tool: t")) == "Unknown tool: t"


def test_importing_the_cli_does_not_import_the_sdk():
    code = "import sys, nl2sparql.cli.main; print('mcp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": ""})
    assert out.stdout.strip() == "False"
