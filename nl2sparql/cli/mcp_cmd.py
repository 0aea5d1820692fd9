"""``nl2sparql mcp serve`` and ``nl2sparql mcp config``: the MCP server for LLM clients.

Register with ``app.add_typer(mcp_cmd.app, name="mcp")`` in ``cli/main.py``.
The KB and the LLM are chosen with the same flags, environment variables and
TOML file as the other commands.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..api import DEFAULT_TIMEOUT
from ..errors import ConfigError
from .common import (KB_PANEL, LLM_PANEL, EmbedderOpt, EndpointOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt,
                     ServiceOpt, StoreOpt, err_console, friendly, kb_choice, warn_if_exposed)

app = typer.Typer(help="Serve nl2sparql's tools to LLM clients over the Model Context Protocol.",
                  no_args_is_help=True)

LLMFlag = Annotated[bool, typer.Option(
    "--llm", rich_help_panel=LLM_PANEL,
    help="translate uses the configured LLM unless a call asks for offline (default: offline).")]
BudgetOpt = Annotated[float, typer.Option(
    "--timeout", min=0.001, rich_help_panel=KB_PANEL, help="Longest time budget one query may get, in seconds.")]
MaxRowsOpt = Annotated[int, typer.Option("--max-rows", min=1, max=1000, rich_help_panel=KB_PANEL,
                                         help="Most rows one call returns.")]


def _config(store, endpoint, service, timeout, max_rows, llm, llm_model, llm_base_url, llm_config, embedder):
    from ..mcp import ServerConfig
    return ServerConfig(kb=kb_choice(store, endpoint, timeout, services=service), max_rows=max_rows,
                        mode="llm" if llm else "offline",
                        llm={"model": llm_model, "base_url": llm_base_url,
                             "config_file": str(llm_config) if llm_config else None},
                        embedder=embedder)


@app.command("serve")
@friendly
def serve(
    transport: Annotated[str, typer.Option("--transport", help="stdio (a client starts the server) or http "
                                                               "(streamable HTTP at http://HOST:PORT/mcp).")]
        = "stdio",
    host: Annotated[str, typer.Option("--host", help="Address the HTTP transport listens on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port of the HTTP transport.")] = 8000,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    timeout: BudgetOpt = DEFAULT_TIMEOUT,
    max_rows: MaxRowsOpt = 1000,
    llm: LLMFlag = False,
    llm_model: LLMModelOpt = None,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
    embedder: EmbedderOpt = None,
) -> None:
    """Serve the nl2sparql tools and liita:// resources over MCP (stdio by default)."""
    from ..mcp import TRANSPORTS, serve as run

    if transport not in TRANSPORTS:
        raise ConfigError(f"unknown transport {transport!r} (use {' or '.join(TRANSPORTS)})")
    config = _config(store, endpoint, service, timeout, max_rows, llm, llm_model, llm_base_url, llm_config, embedder)
    if transport == "http":
        _check_port(host, port)
        warn_if_exposed(host, "call the tools")
        err_console.print(f"nl2sparql MCP server at http://{host}:{port}/mcp (KB: {config.kb.label}); "
                          "Ctrl-C stops it", highlight=False)
    run(config, transport, host, port)


def _check_port(host: str, port: int) -> None:
    """One clear line when the HTTP port cannot be bound (in use, or an unknown address)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise ConfigError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); choose another --port "
                          "or --host") from None


@app.command("config")
@friendly
def config(
    name: Annotated[str, typer.Option("--name", help="The server's name in the client.")] = "nl2sparql",
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    timeout: BudgetOpt = DEFAULT_TIMEOUT,
    max_rows: MaxRowsOpt = 1000,
    llm: LLMFlag = False,
    llm_model: LLMModelOpt = None,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
    embedder: EmbedderOpt = None,
) -> None:
    """Print a claude_desktop_config.json entry that starts this install's server (JSON on stdout)."""
    from ..mcp import desktop_config
    from ..paths import cache_dir

    _config(store, endpoint, service, timeout, max_rows, llm, llm_model, llm_base_url, llm_config,
            embedder)  # checks
    args: list[str] = []
    if store:
        args += ["--store", str(Path(store).resolve())]
    if endpoint:
        args += ["--endpoint", endpoint]
    for entry in service or []:
        args += ["--service", entry]
    if timeout != DEFAULT_TIMEOUT:
        args += ["--timeout", f"{timeout:g}"]
    if max_rows != 1000:
        args += ["--max-rows", str(max_rows)]
    if embedder:
        args += ["--embedder", embedder]
    env: dict[str, str] = {}
    if llm or llm_model or llm_base_url or llm_config:
        args += ["--llm"] if llm else []
        args += ["--llm-model", llm_model] if llm_model else []
        args += ["--llm-base-url", llm_base_url] if llm_base_url else []
        args += ["--llm-config", str(Path(llm_config).resolve())] if llm_config else []
        env["NL2SPARQL_LLM_CACHE"] = str(cache_dir() / "llm_cache.sqlite")  # the client's working dir is unknown
        if not llm_base_url:
            env["OPENAI_API_KEY"] = "<your API key>"
    sys.stdout.write(json.dumps(desktop_config(args, env, name), indent=2) + "\n")
    err_console.print("Merge this into claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, "
                      "Windows: %APPDATA%\\Claude\\, Linux: ~/.config/Claude/) and restart Claude Desktop.",
                      highlight=False, soft_wrap=True)
