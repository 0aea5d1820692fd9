"""The nl2sparql MCP server: the SDK's ``MCPServer`` with our tools and resources, over stdio or HTTP.

Every failure of a tool call reaches the client as a tool error with one
line: a project error keeps its own message, arguments that break the
input schema are named with what is wrong, and an unexpected exception is
named by type (its traceback goes to the server's stderr only). The server
keeps serving after any of them.

Nothing heavy loads before the first call: the KB, the retrieval index, the
embedder and the LLM client are opened by the tool that needs them, so the
server answers ``initialize`` quickly.
"""

from __future__ import annotations

import inspect
import logging
import signal
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from ..api import close_all
from ..errors import Nl2SparqlError
from . import extra_tools, prompts, resources, tools
from .config import DEFAULT_HOST, DEFAULT_PORT, ServerConfig, package_version

log = logging.getLogger("nl2sparql.mcp")

INSTRUCTIONS = """\
Tools over LiITA (Linking Italian), the linked-data knowledge base of Italian lexical resources: the Lemma
Bank, ELITA emotions, Sentix polarity, Parmigiano and Sicilian glossaries, and CompL-it senses (reached
through SERVICE). To answer a question: translate it (or write SPARQL yourself after get_constraints,
search_ontology and retrieve_examples), check it with validate_sparql, then run it with execute_sparql.
A translate result with off_topic set means the question is not about LiITA. The liita://ontology/catalog
and liita://patterns resources are indexes; read one entry with liita://ontology/term/{curie} or
liita://patterns/{name}. Results are JSON; errors are one line saying what to change."""

TRANSPORTS = ("stdio", "http")


class Nl2SparqlMCP(MCPServer):
    """``MCPServer`` whose tool errors are one clear line (see the module docstring), and whose tools,
    resources and prompts are described by their docstrings without the source's indentation."""

    def tool(self, name=None, title=None, description=None, **options):
        """The SDK's ``tool`` decorator, the description defaulting to the dedented docstring."""
        return lambda fn: super(Nl2SparqlMCP, self).tool(name, title, description or _doc(fn), **options)(fn)

    def resource(self, uri, *, description=None, **options):
        """The SDK's ``resource`` decorator, the description defaulting to the dedented docstring."""
        return lambda fn: super(Nl2SparqlMCP, self).resource(uri, description=description or _doc(fn),
                                                               **options)(fn)

    def prompt(self, name=None, title=None, description=None, **options):
        """The SDK's ``prompt`` decorator, the description defaulting to the dedented docstring."""
        return lambda fn: super(Nl2SparqlMCP, self).prompt(name, title, description or _doc(fn), **options)(fn)

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        """Call a tool; any failure other than a protocol error is re-raised as a one-line :class:`ToolError`."""
        try:
            return await super().call_tool(name, arguments, context)
        except MCPError:
            raise
        except ToolError as exc:
            raise ToolError(error_message(name, exc)) from exc.__cause__


def error_message(tool: str, exc: ToolError) -> str:
    """The one line a client sees for a failed call of ``tool``."""
    cause = exc.__cause__
    while isinstance(cause, ToolError) and cause.__cause__ is not None:
        cause = cause.__cause__
    if isinstance(cause, ValidationError) and not isinstance(exc, UnexpectedToolError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                             for e in cause.errors())
        return f"invalid arguments for {tool}: {problems} (see the tool's input schema)"
    if isinstance(cause, (Nl2SparqlError, ToolError)):
        return _one_line(str(cause))
    if isinstance(cause, FileNotFoundError):
        return f"file not found: {cause.filename}"
    if cause is None:
        return _one_line(str(exc))  # the SDK's own, e.g. "Unknown tool: x"
    log.error("tool %s failed unexpectedly", tool, exc_info=cause)
    return f"{tool} failed with an internal error ({type(cause).__name__}: {_one_line(str(cause))})"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _doc(fn) -> str | None:
    """``fn``'s docstring without the indentation of the source it was written in."""
    return inspect.cleandoc(fn.__doc__) if fn.__doc__ else None


def build_server(config: ServerConfig | None = None) -> Nl2SparqlMCP:
    """The server with every tool and resource registered (nothing is opened yet)."""
    config = config or ServerConfig()
    server = Nl2SparqlMCP("nl2sparql", title="nl2sparql for LiITA", instructions=INSTRUCTIONS,
                          version=package_version(), log_level="WARNING")
    tools.register(server, config)
    extra_tools.register(server, config)
    resources.register(server, config)
    prompts.register(server)
    return server


def serve(config: ServerConfig, transport: str = "stdio", host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    """Serve until the client disconnects (stdio) or the process is stopped (``http``: ``http://host:port/mcp``)."""
    if transport not in TRANSPORTS:
        raise ValueError(f"unknown transport {transport!r} (use {' or '.join(TRANSPORTS)})")
    if config.mode == "llm":  # translating with the LLM by default: bad LLM settings stop the start, not each call
        config.llm_settings()
    config.kb.check_store()  # the store opens at the first call; a wrong path stops the start
    server = build_server(config)
    signal.signal(signal.SIGTERM, _stop)
    try:
        if transport == "stdio":
            server.run("stdio")
        else:
            server.run("streamable-http", host=host, port=port)
    finally:
        close_all()  # stop the KB's query workers before the interpreter's own exit handlers run


def _stop(signum, frame) -> None:
    """SIGTERM ends the server like Ctrl-C does: the stack unwinds and the KB's query workers are stopped.

    (uvicorn re-raises the signal after its graceful shutdown; with the default
    action the process would die before closing the KB, leaving its workers.)
    """
    raise SystemExit(0)
