"""The one entry point to nl2sparql: plain functions with typed, JSON-serialisable results.

The CLIs, the MCP server and the web UI all call these functions; nothing
below them is meant for those layers. They are the service layer's functions
(:mod:`nl2sparql.service`, which the agent itself is built on) plus the agent.

>>> from nl2sparql import api
>>> t = api.translate("Quali sostantivi esprimono paura?", execute=True)
>>> t.sparql, t.patterns, t.rows.count
>>> api.execute("SELECT ?e WHERE { ?e a elita:Emotion }").values()
>>> api.validate("SELECT * WHERE { ?s lexinfo:hypernym ?o }", execute=False).issues
>>> api.agent("Qual è la definizione di «bassotto»?").sparql     # runs, checks and retries its queries

Every function that touches data takes ``kb=``: ``None`` (the environment's
``NL2SPARQL_STORE`` / ``NL2SPARQL_ENDPOINT``, else the embedded sample),
``"sample"``, a store directory, an endpoint URL, a :class:`KBChoice`, or an
open knowledge base. Results have ``to_dict()``. Bad input raises
:class:`~nl2sparql.errors.Nl2SparqlError` subclasses whose message is one
line naming the problem and what to do.
"""

from __future__ import annotations

from .. import service
from ..service import *  # noqa: F401,F403 - the service functions are the API's
from ._agent import AgentResult, AgentStep, agent, agent_graph, agent_stream

__all__ = [*service.__all__, "agent", "agent_stream", "agent_graph", "AgentResult", "AgentStep"]
