"""Our own MCP tools beyond the reference's nine: the agent, a small generation run, scoring, the KB profile."""

import tempfile
import threading
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

from pydantic import Field

from .. import api
from ..api import KBInfo, ScoreResult
from .config import ServerConfig
from .fields import (MAX_GENERATE, MAX_SCORE_ITEMS, GeneratedExamples, GoldPair, Patterns, Prediction,
                     Question)
from .tools import READ_ONLY


def optional_api(name: str, what: str):
    """``api.<name>``, or a one-line error when this build does not have it yet."""
    func = getattr(api, name, None)
    if func is None:
        raise api.ConfigError(f"{what} is not available in this build")
    return func


def register(server, config: ServerConfig) -> None:
    """Add ``agent_translate``, ``generate_examples``, ``score_predictions`` and ``kb_info`` to ``server``."""
    from mcp.types import ToolAnnotations

    hints = ToolAnnotations(**READ_ONLY)
    kb = config.kb
    profile: dict[str, KBInfo] = {}
    profile_lock = threading.Lock()

    @server.tool(title="Translate with the agent (attempts trace)", annotations=hints)
    def agent_translate(
        question: Question,
        mode: Annotated[Optional[Literal["offline", "llm"]], Field(
            description="offline: no LLM; llm: the server's LLM reads, plans and writes. Default: the server's "
                        f"({config.mode}).")] = None,
        max_attempts: Annotated[int, Field(ge=1, le=5, description="Most queries the agent tries (1 to 5).")] = 3,
    ) -> dict[str, Any]:
        """Translate a question with the nl2sparql agent: it reads the question, drafts a query, runs it and
        checks the answer against the question, and tries other readings over several attempts. Returns the
        final SPARQL, up to as many rows as translate attaches, whether the answer was verified (final.verified,
        final.reason), a confidence that is a probability, and the trace of every attempt (what was tried,
        what went wrong, what changed)."""
        agent = optional_api("agent", "the agent")
        chosen = mode or config.mode
        return agent(question, mode=chosen, kb=kb, embedder=config.embedder, max_attempts=max_attempts,
                     max_rows=config.answer_rows, llm=config.llm_settings() if chosen == "llm" else None).to_dict()

    @server.tool(title="Generate validated question/SPARQL examples", annotations=hints)
    def generate_examples(
        target: Annotated[int, Field(ge=1, le=MAX_GENERATE, description=(
            f"Examples to generate (1 to {MAX_GENERATE}); fewer come back when the KB runs out of distinct "
            "ones."))] = 5,
        seed: Annotated[int, Field(ge=0, le=2**31 - 1, description="Random seed: the same seed gives the same "
                                                                    "examples.")] = 0,
        patterns: Patterns = [],  # noqa: B006 - pydantic copies defaults
    ) -> GeneratedExamples:
        """Run the generation pipeline for a few examples on the server's KB: sample facts, compose SPARQL
        from the pattern catalogue, keep queries that answer, phrase Italian and English questions. Nothing
        is written to the user's files. Returns the pool items."""
        from ..fileio import read_pool

        with tempfile.TemporaryDirectory(prefix="nl2sparql-mcp-") as tmp:
            out = Path(tmp) / "pool.jsonl"
            run = api.generate(target, seed=seed, patterns=patterns or None, out=out, kb=kb,
                               timeout=config.timeout, cache_dir=Path(tmp) / "runs")
            items, _ = read_pool(out)
        return {"kept": run.kept, "target": run.target, "seconds": run.seconds, "rejected": run.rejected,
                "items": items}

    @server.tool(title="Score predicted SPARQL against gold by execution", annotations=hints)
    def score_predictions(
        gold: Annotated[list[GoldPair], Field(min_length=1, max_length=MAX_SCORE_ITEMS, description=(
            f"Gold items {{id, sparql}} (1 to {MAX_SCORE_ITEMS})."))],
        predictions: Annotated[list[Prediction], Field(max_length=MAX_SCORE_ITEMS, description=(
            "Predicted queries {id, sparql} for the gold ids; a missing id counts as no prediction."))],
    ) -> ScoreResult:
        """Run each gold query and its prediction on the server's KB and compare what they return (not
        the query text). Returns per-item verdicts (match, partial, wrong, error, missing) with precision,
        recall and F1 over rows, and a summary."""
        return api.score([dict(g) for g in gold], [dict(p) for p in predictions], kb=kb)

    @server.tool(title="Describe the knowledge base", annotations=hints)
    def kb_info() -> KBInfo:
        """What the server's knowledge base holds: its graphs with triple counts, and in each graph the
        classes and properties with their counts. Measured once, then remembered."""
        with profile_lock:
            if "info" not in profile:
                profile["info"] = api.kb_info(kb=kb)
            return profile["info"]
