"""An MCP server exposing nl2sparql to LLM clients (Claude Desktop, IDEs, agents), over stdio or HTTP.

A thin adapter over :mod:`nl2sparql.api`: the reference LiITA server's nine
tools with the same names (``translate``, ``infer_patterns``,
``retrieve_examples``, ``search_ontology``, ``get_constraints``,
``validate_sparql``, ``execute_sparql``, ``fix_case_sensitivity``,
``check_variable_reuse``), our own (``agent_translate``,
``generate_examples``, ``score_predictions``, ``kb_info``), ``liita://``
resources and resource templates (:mod:`.resources`) and prompts for the
common tasks (:mod:`.prompts`). Start it with ``nl2sparql mcp serve``; ``nl2sparql
mcp config`` prints a Claude Desktop entry.

>>> from nl2sparql.mcp import ServerConfig, build_server
>>> server = build_server(ServerConfig())   # an mcp MCPServer; server.run("stdio")
"""

from __future__ import annotations

from .config import ServerConfig, desktop_config
from .server import TRANSPORTS, build_server, serve

__all__ = ["ServerConfig", "build_server", "serve", "desktop_config", "TRANSPORTS"]
