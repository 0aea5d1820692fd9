"""The MCP resources: read-only JSON documents a client host loads as context.

* ``liita://ontology/catalog``: the ontology catalogue;
* ``liita://constraints/base``: the base rules and the exact prefixes;
* ``liita://config``: the server's effective configuration, without secrets;
* ``liita://patterns``: the pattern catalogue with one example per pattern;
* ``liita://schema``: graphs, prefixes, the CompL-it SERVICE and the rules.
"""

from __future__ import annotations

import functools

from .. import api
from .config import ServerConfig

JSON = "application/json"


def _clear_errors(func):
    """Project errors become resource errors with their one-line message (not an opaque failure)."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from mcp.server.mcpserver.exceptions import ResourceError
        try:
            return func(*args, **kwargs)
        except api.Nl2SparqlError as exc:
            raise ResourceError(str(exc)) from exc
    return wrapper


def register(server, config: ServerConfig) -> None:
    """Add the five ``liita://`` resources to ``server``."""

    @server.resource("liita://ontology/catalog", title="LiITA ontology catalogue", mime_type=JSON)
    @_clear_errors
    def ontology_catalog() -> dict:
        """Every ontology class and property LiITA queries use: IRI, labels, meaning, domain and range,
        where it lives (LiITA or CompL-it) and a usage query."""
        return api.ontology_catalog()

    @server.resource("liita://constraints/base", title="Base rules and prefixes", mime_type=JSON)
    @_clear_errors
    def base_constraints() -> dict:
        """The rules every LiITA query must keep, the exact prefixes and the base constraint prompt."""
        return api.constraints()

    @server.resource("liita://config", title="Server configuration", mime_type=JSON)
    @_clear_errors
    def server_config() -> dict:
        """The server's effective configuration: KB, per-query limits, translation mode, LLM models and
        base URL (never a key)."""
        return config.effective()

    @server.resource("liita://patterns", title="Query pattern catalogue", mime_type=JSON)
    @_clear_errors
    def patterns() -> list:
        """The LiITA query patterns: label, role, what each does, its rule, its canonical SPARQL block and
        one example question with its query from the shipped pools."""
        return api.pattern_catalogue()

    @server.resource("liita://schema", title="LiITA schema facts", mime_type=JSON)
    @_clear_errors
    def schema() -> dict:
        """LiITA's layout: prefixes, named graphs, the CompL-it SERVICE, the lemma banks, the emotions,
        and the rules queries get wrong."""
        return api.schema()
