"""A self-correcting LangGraph agent that translates questions into LiITA SPARQL, with or without an LLM.

``analyze → plan → retrieve → generate → execute → verify``, then ``refine``
(an error or an answer of the wrong shape; back to ``retrieve``), ``explore``
(no rows; ontology search and KB probes, back to ``generate``) or ``output``;
at most ``max_attempts`` queries (3), then the first valid one.

* :mod:`.state`: the state, plain JSON-ready data only;
* :mod:`.context`: the run context (KB, translator, LLM client, limits),
  never checkpointed; every query goes through :func:`nl2sparql.service.execute`;
* :mod:`.nodes`: the nodes; :mod:`.reading` (what the answer must look like),
  :mod:`.candidates` (readings and adapted examples), :mod:`.rewrite` (query
  rewrites and safe fixes), :mod:`.tools` (ontology search, KB probes),
  :mod:`.explore` (what the probes suggest), :mod:`.llm_steps` (the LLM side);
* :mod:`.graph`: the graph, runs, streaming, the sqlite checkpointer, Mermaid;
* :mod:`.testing`: scripted strategies for tests.

Use :func:`nl2sparql.api.agent` / :func:`nl2sparql.api.agent_stream`.
"""

from .context import MAX_ATTEMPTS, AgentContext
from .graph import NODES, Run, build_graph, mermaid, recursion_limit, sqlite_checkpointer
from .state import AgentState, initial_state

__all__ = ["AgentContext", "AgentState", "MAX_ATTEMPTS", "NODES", "Run", "build_graph", "initial_state", "mermaid",
           "recursion_limit", "sqlite_checkpointer"]
