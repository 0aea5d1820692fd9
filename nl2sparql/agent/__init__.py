"""A LangGraph agent that translates questions into LiITA SPARQL and knows when it is wrong.

``analyze → plan → retrieve → generate → execute → verify``, then ``refine``
(an error, or an answer the checks reject; back to ``retrieve``), ``explore``
(no rows; ontology search and KB probes, back to ``generate``) or ``output``;
at most ``max_attempts`` queries (3), then the best verified attempt, or the
best unverified one said plainly to be unverified. A question that is not
about LiITA ends at ``analyze``, with no query run.

The question is read once, by the translator (:mod:`nl2sparql.translate`): the
agent adds what only it can do: run, check against the question, explore, retry.

* :mod:`.state`: the state, plain JSON-ready data only;
* :mod:`.context`: the run context (KB, translator, LLM client, limits),
  never checkpointed; every query goes through :func:`nl2sparql.service.execute`;
* :mod:`.nodes`: the nodes; :mod:`.checks` (what the answer must be, every
  check in one place), :mod:`.confidence` (a calibrated probability),
  :mod:`.candidates` (readings and adapted examples), :mod:`.rewrite` (query
  rewrites), :mod:`.fixes` (safe fixes), :mod:`.tools` (ontology search, KB probes),
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
