"""The agent: a self-correcting translation that runs its queries, checks them and tries again.

:func:`agent` returns an :class:`AgentResult`; :func:`agent_stream` yields an
:class:`AgentStep` after every node (its update and the whole state so far,
the refinement history included). Both take ``mode="offline"`` (default: every
node works without an LLM) or ``mode="llm"``, and ``checkpoint`` + ``thread``
to keep the run in a sqlite file, inspect it, or resume it where it stopped.

Registers the ``agent`` translator for :func:`nl2sparql.api.evaluate`.
"""

from __future__ import annotations

import threading
import time
import weakref
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from ..checks import check_count, check_question, check_timeout
from ..errors import ConfigError, Nl2SparqlError
from ..score.evaluate import PREDICTORS, register_predictor
from ..service.kbs import KBLike, limits, using_kb
from ..service.llm import llm_client
from ..service.pools import PoolsLike, resolve_pools
from ..service.translation import MODES
from ..service.types import Result, Rows


#: The most queries one agent run may try.
ATTEMPTS_CAP = 10


@dataclass
class AgentResult(Result):
    """An agent run: the final SPARQL, how sure it is, every query tried, the node trace, the rows.

    ``queries``: every query run, in order (``attempt``, ``sparql``, ``fix`` that produced it or
    ``None``, ``rows`` or ``error``). ``attempts``: the attempts with their verdicts. ``final``:
    where the answer came from (``source``, ``attempt``, ``fallback``, ``verdict``, ``reason``).
    ``status``: ``new``, ``resumed`` or ``finished`` (a checkpointed thread returned as it was).
    """

    question: str
    sparql: str
    confidence: float
    mode: str
    attempts: list[dict] = field(default_factory=list)
    queries: list[dict] = field(default_factory=list)
    trace: list[dict] = field(default_factory=list)
    rows: Optional[Rows] = None
    final: dict = field(default_factory=dict)
    analysis: dict = field(default_factory=dict)
    plan: dict = field(default_factory=dict)
    refinements: list[dict] = field(default_factory=list)
    exploration: list[dict] = field(default_factory=list)
    thread: Optional[str] = None
    status: str = "new"
    elapsed_ms: float = 0.0
    llm: Optional[dict] = None


@dataclass
class AgentStep(Result):
    """One streamed step: the node that ran, what it changed, and the whole state after it."""

    node: str
    update: dict
    state: dict
    mode: str = "offline"

    def to_result(self) -> "AgentResult | None":
        """The :class:`AgentResult` of the run once ``output`` has run (``None`` before)."""
        if not self.state.get("final"):
            return None
        return result_from_state(self.state, mode=self.mode)


#: One concept mapper per open KB and embedder: its lexicon (every written form of the KB) is read once.
_MAPPERS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_MAPPERS_LOCK = threading.Lock()


def _concepts(store, embedder: str | None):
    """The :class:`~nl2sparql.translate.concepts.ConceptMapper` of ``store`` (English words → its lemmas),
    shared by the agent runs on that KB, as the translator reads questions on it."""
    from ..translate.concepts import ConceptMapper

    with _MAPPERS_LOCK:
        per_kb = _MAPPERS.setdefault(store, {})
        if embedder not in per_kb:
            ref = weakref.ref(store)
            per_kb[embedder] = ConceptMapper(lambda: ref(), embedder=embedder)
        return per_kb[embedder]


@contextmanager
def _run(question: str, *, mode: str, kb: KBLike, pools: PoolsLike, k: int, embedder: str | None, llm,
         max_attempts: int, timeout: float | None, max_rows: int | None, checkpoint: str | Path | None,
         thread: str | None, exclude_ids: Iterable[str] = ()):
    """An :class:`~nl2sparql.agent.Run` with its context, KB, LLM client and checkpointer open."""
    from ..agent import AgentContext, Run, sqlite_checkpointer
    from ..translate.offline import OfflineTranslator
    from ..translate.translator import get_retriever

    check_question(question)
    if mode not in MODES:
        raise ConfigError(f"unknown agent mode {mode!r} (use offline or llm)")
    if thread is not None and checkpoint is None:
        raise ConfigError("a thread id needs a checkpoint file (--checkpoint FILE) to be kept or resumed")
    if k < 1:
        raise ConfigError("k (examples to retrieve) must be at least 1")
    check_count(max_attempts, "max_attempts", 1, ATTEMPTS_CAP)
    timeout, max_rows = limits(kb, timeout, max_rows)
    if timeout is not None:
        check_timeout(timeout)
    if max_rows is not None:
        check_count(max_rows, "--max-rows")
    paths = resolve_pools(pools)
    retriever = get_retriever(paths, exclude_ids=exclude_ids, embedder=embedder) if paths else None
    with ExitStack() as stack:
        client = llm_client(llm) if mode == "llm" else None
        if client is not None:
            stack.callback(client.close)
            # reading, planning and one query per attempt: a hanging server costs at most this, then offline
            client.set_budget((max_attempts + 2) * client.config.timeout)
        store = stack.enter_context(using_kb(kb))
        saver = stack.enter_context(sqlite_checkpointer(checkpoint)) if checkpoint is not None else None
        translator = OfflineTranslator(retriever, k=k, concepts=_concepts(store, embedder))
        ctx = AgentContext(kb=store, translator=translator, llm=client,
                           max_attempts=max_attempts, timeout=timeout, max_rows=max_rows, k=k)
        yield Run(question, ctx, checkpointer=saver, thread=thread), client


def result_from_state(state: dict, *, mode: str, thread: str | None = None, status: str = "new",
                      elapsed_ms: float = 0.0, llm: dict | None = None) -> AgentResult:
    """An :class:`AgentResult` from a finished agent state (as :func:`agent` returns it)."""
    final = dict(state.get("final") or {})
    rows = final.pop("rows", None)
    attempts = state.get("attempts") or []
    queries = [{"attempt": a["n"], **run} for a in attempts for run in a.get("runs") or []]
    return AgentResult(
        question=state.get("question", ""), sparql=final.pop("sparql", ""), confidence=final.pop("confidence", 0.0),
        mode=mode, attempts=attempts, queries=queries, trace=state.get("trace") or [],
        rows=Rows(**rows) if rows else None, final=final, analysis=state.get("analysis") or {},
        plan=state.get("plan") or {}, refinements=state.get("refinements") or [],
        exploration=state.get("exploration") or [], thread=thread, status=status, elapsed_ms=round(elapsed_ms, 2),
        llm=llm)


def agent(question: str, *, mode: str = "offline", kb: KBLike = None, pools: PoolsLike = None, k: int = 5,
          embedder: str | None = None, llm=None, max_attempts: int = 3, timeout: float | None = None,
          max_rows: int | None = None, checkpoint: str | Path | None = None, thread: str | None = None,
          exclude_ids: Iterable[str] = ()) -> AgentResult:
    """Translate ``question`` with the self-correcting agent, executing and checking each attempt.

    ``mode="offline"`` (default) needs no LLM; ``mode="llm"`` uses the configured
    LLM (``llm``: an :class:`~nl2sparql.llm.LLMConfig`, else the environment): the
    fast tier reads and plans, the default tier writes. At most ``max_attempts``
    queries are tried, then the first valid one is returned. ``checkpoint`` (a
    sqlite file) with ``thread`` keeps the run; calling again with the same thread
    resumes an interrupted run or returns the finished one. ``exclude_ids`` keeps
    pool items out of retrieval (evaluation). A question that is not about LiITA
    (:func:`~nl2sparql.service.topic.off_topic`) ends at its analysis with the verdict ``off_topic``, no
    query run.
    """
    start = time.perf_counter()
    with _run(question, mode=mode, kb=kb, pools=pools, k=k, embedder=embedder, llm=llm, max_attempts=max_attempts,
              timeout=timeout, max_rows=max_rows, checkpoint=checkpoint, thread=thread,
              exclude_ids=exclude_ids) as (run, client):
        state = run.invoke()
        usage = {**client.config.to_dict(), "usage": client.usage.to_dict()} if client is not None else None
        thread_id = run.thread if checkpoint is not None else None
        return result_from_state(state, mode=mode, thread=thread_id, status=run.status,
                                 elapsed_ms=(time.perf_counter() - start) * 1000, llm=usage)


def agent_stream(question: str, *, mode: str = "offline", kb: KBLike = None, pools: PoolsLike = None, k: int = 5,
                 embedder: str | None = None, llm=None, max_attempts: int = 3, timeout: float | None = None,
                 max_rows: int | None = None, checkpoint: str | Path | None = None,
                 thread: str | None = None) -> Iterator[AgentStep]:
    """:func:`agent`, one :class:`AgentStep` per node as it finishes (the last one's state holds ``final``)."""
    with _run(question, mode=mode, kb=kb, pools=pools, k=k, embedder=embedder, llm=llm, max_attempts=max_attempts,
              timeout=timeout, max_rows=max_rows, checkpoint=checkpoint, thread=thread) as (run, _):
        for step in run.stream():
            yield AgentStep(step["node"], dict(step["update"]), dict(step["state"]), mode)


class AgentPredictor:
    """The ``agent`` translator for ``evaluate``: the items under evaluation are never retrieved.

    ``ctx.settings`` may name ``pools`` (comma-separated), an ``embedder`` and ``max_attempts``.
    """

    def __init__(self, ctx):
        settings = getattr(ctx, "settings", None) or {}
        pools = settings.get("pools")
        self.options: dict[str, Any] = {
            "kb": ctx.kb, "pools": pools.split(",") if pools else None, "embedder": settings.get("embedder"),
            "max_attempts": int(settings.get("max_attempts", 3)), "exclude_ids": {i.id for i in ctx.items}}

    def predict(self, question: str, lang: str) -> str:
        """The agent's final SPARQL for ``question``."""
        try:
            return agent(question, **self.options).sparql
        except Nl2SparqlError:
            return ""


if "agent" not in PREDICTORS:
    register_predictor("agent", AgentPredictor)


def agent_graph() -> str:
    """The agent's graph as a Mermaid diagram (nodes and conditional edges)."""
    from ..agent import mermaid
    return mermaid()
