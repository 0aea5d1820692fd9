"""The LangGraph ``StateGraph`` of the agent, how to run it, stream it, resume it and draw it.

::

    analyze ─┬→ plan → retrieve → generate ─┬→ execute → verify ─┬→ output → END
             │                ↑          ↑   └→ output (nothing    ├→ refine ─→ retrieve
             └→ output        │          │      left to try)      └→ explore ─→ generate
               (not about LiITA: nothing is run)

``analyze``, ``verify`` and ``generate`` write the route into the state (``route``), so a
checkpoint shows where a run was going. The recursion limit is explicit
(:func:`recursion_limit`: the steps of ``max_attempts`` rounds plus the fixed
ones), and a run is checkpointed per step when a checkpointer is given (see
:func:`sqlite_checkpointer`), so it can be inspected or resumed by thread id.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from langgraph.graph import END, START, StateGraph

from ..errors import ConfigError
from ..fileio import DiskFull, no_space
from . import nodes
from .context import AgentContext
from .state import AgentState, initial_state

NODES = ("analyze", "plan", "retrieve", "generate", "execute", "verify", "refine", "explore", "output")
#: Node runs outside the attempt rounds (analyze, plan, retrieve, output) plus slack.
FIXED_STEPS = 6
#: Node runs per attempt round at most (generate, execute, verify, refine or explore, retrieve).
STEPS_PER_ATTEMPT = 5


def recursion_limit(max_attempts: int) -> int:
    """The LangGraph recursion limit for a run of at most ``max_attempts`` attempts."""
    return FIXED_STEPS + STEPS_PER_ATTEMPT * max_attempts


def _after_analyze(state: AgentState) -> str:
    return "output" if (state.get("analysis") or {}).get("off_topic") else "plan"


def _after_generate(state: AgentState) -> str:
    return "execute" if state.get("current") else "output"


def _after_verify(state: AgentState) -> str:
    return state.get("route") or "output"


def build_graph(checkpointer=None):
    """The compiled agent graph (``checkpointer``: any LangGraph checkpointer, e.g. :func:`sqlite_checkpointer`)."""
    graph = StateGraph(AgentState, context_schema=AgentContext)
    for name in NODES:
        graph.add_node(name, getattr(nodes, name))
    graph.add_edge(START, "analyze")
    graph.add_conditional_edges("analyze", _after_analyze, {"plan": "plan", "output": "output"})
    graph.add_edge("plan", "retrieve")
    graph.add_edge("retrieve", "generate")
    graph.add_conditional_edges("generate", _after_generate, {"execute": "execute", "output": "output"})
    graph.add_edge("execute", "verify")
    graph.add_conditional_edges("verify", _after_verify, {"output": "output", "refine": "refine",
                                                          "explore": "explore"})
    graph.add_edge("refine", "retrieve")
    graph.add_edge("explore", "generate")
    graph.add_edge("output", END)
    return graph.compile(checkpointer=checkpointer)


@functools.cache
def plain_graph():
    """The graph without a checkpointer, compiled once per process (it holds no run's state; each run passes
    its own input, thread and context)."""
    return build_graph()


def mermaid() -> str:
    """The graph as a Mermaid flowchart (what ``nl2sparql agent-viz`` prints)."""
    return build_graph().get_graph().draw_mermaid()


@contextmanager
def sqlite_checkpointer(path: str | Path):
    """A LangGraph sqlite checkpointer on ``path`` (created when missing), closed on exit."""
    try:
        from langgraph.checkpoint.sqlite import SqliteSaver
    except ImportError:
        raise ConfigError("checkpoints need langgraph-checkpoint-sqlite: pip install langgraph-checkpoint-sqlite") \
            from None
    path = Path(path)
    if path.parent and not path.parent.is_dir():
        raise ConfigError(f"{path.parent}: no such directory for the checkpoint file")
    try:
        conn = sqlite3.connect(str(path), check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
    except sqlite3.Error as exc:
        raise ConfigError(f"{path}: cannot open the checkpoint file ({exc})") from None
    try:
        yield SqliteSaver(conn)
    except sqlite3.OperationalError as exc:
        if no_space(exc) or _full(path):  # SQLite may say only "disk I/O error" when a write finds no room
            raise DiskFull(path, "free some space and run the agent again with the same --checkpoint and "
                                 "--thread: it resumes where it stopped") from None
        raise
    finally:
        conn.close()


def _full(path: Path) -> bool:
    """True when the file system holding ``path`` has no block left for an unprivileged writer."""
    try:
        return os.statvfs(path.parent).f_bavail == 0
    except OSError:
        return False


class Run:
    """One agent run on a compiled graph: a fresh thread, or a thread to resume or inspect.

    ``thread``: the thread id (a new one when ``None``). With a checkpointer,
    a thread whose run stopped half-way is resumed where it stopped; a finished
    thread is returned as it is (nothing runs); a thread that holds another
    question is refused.
    """

    def __init__(self, question: str, ctx: AgentContext, *, checkpointer=None, thread: str | None = None):
        self.graph = build_graph(checkpointer) if checkpointer is not None else plain_graph()
        self.ctx = ctx
        self.thread = thread or uuid.uuid4().hex
        self.config = {"configurable": {"thread_id": self.thread},
                       "recursion_limit": recursion_limit(ctx.max_attempts)}
        self.durability = "sync" if checkpointer is not None else None
        self.input = initial_state(question)
        self.status = "new"
        if checkpointer is not None:
            saved = self.graph.get_state(self.config)
            if saved.values:
                if saved.values.get("question") != question:
                    raise ConfigError(f"thread {self.thread!r} holds a run for another question "
                                      f"({saved.values.get('question')!r}); use a new --thread")
                self.input = None
                self.status = "resumed" if saved.next else "finished"

    def invoke(self) -> dict:
        """Run to the end (or return the finished thread's state)."""
        if self.status == "finished":
            return dict(self.graph.get_state(self.config).values)
        kw = {"durability": self.durability} if self.durability else {}
        return self.graph.invoke(self.input, self.config, context=self.ctx, **kw)

    def stream(self) -> Iterator[dict]:
        """``{"node", "update", "state"}`` after each node: its own update and the whole state so far."""
        if self.status == "finished":
            yield {"node": "output", "update": {}, "state": dict(self.graph.get_state(self.config).values)}
            return
        kw = {"durability": self.durability} if self.durability else {}
        pending = None
        for mode, payload in self.graph.stream(self.input, self.config, context=self.ctx,
                                               stream_mode=["updates", "values"], **kw):
            if mode == "updates":
                pending = next(iter(payload.items()), None)
            elif pending is not None:
                yield {"node": pending[0], "update": pending[1] or {}, "state": payload}
                pending = None
