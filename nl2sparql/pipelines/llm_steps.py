"""The LLM layer of the generation pipeline: which LLM operators run, and where.

:func:`llm_steps` starts from the template chain (:func:`.generation.default_steps`)
and, following the flags in ``RunConfig.extra`` (``llm``, ``judge``,
``round_trip``), inserts:

* the LLM SPARQL generator after the pattern composer (its candidates are
  merged with the composer's and checked by the same execution filter);
* the LLM question generator after the template question generator (it
  phrases the LLM-written queries, which have no template fragments);
* the correspondence judge after the deduplicator;
* with ``round_trip``, the template chain's round-trip check (the bare offline translator: no
  examples, so no pool answers its own questions; ``predictor=`` gives another) rejects failures
  with ``round_trip_reject``.

The pool writer is replaced by one that also records, per item, the
generator (``llm`` | ``template``), the judge's verdict and the round trip
in ``provenance``. :func:`record_llm` adds the LLM settings (never the key)
and usage to the run manifest. Other ``extra`` keys: ``llm_candidates``
(default 3), ``llm_share`` (default 0.3), ``llm_pool`` (few-shot pool),
``llm_question_mode`` (``fill_missing`` | ``paraphrase``), ``judge_retries``
(default 2), ``round_trip_reject`` (default false).
"""

from __future__ import annotations

import json
import math

from ..errors import ConfigError
from ..operators import Deduplicator, PatternComposer, PoolWriter, QuestionGenerator
from ..operators.judge import CorrespondenceJudge
from ..operators.llm_questions import LLMQuestionGenerator
from ..operators.llm_sparql import LLMSparqlGenerator
from ..operators.round_trip import RoundTripCheck
from .generation import GenerationPipeline, ProgressFactory, RunConfig, Step, default_steps
from .storage import atomic_write_text

#: Row fields copied into each pool item's ``provenance``.
PROVENANCE_FIELDS = ("generator", "llm_model", "llm_targets", "llm_questions", "judge", "round_trip")


class ProvenancePoolWriter(PoolWriter):
    """The pool writer, with the LLM fields of each row (:data:`PROVENANCE_FIELDS`) in its provenance."""

    def __init__(self, config: dict | None = None, **kw):
        super().__init__({**(config or {}), "provenance_fields": list(PROVENANCE_FIELDS)}, **kw)


def _named(name: str):
    """A silent progress callback that remembers the display name (bound later, in chain order)."""
    def progress(done: int, total: int) -> None:
        pass
    progress.step_name = name
    return progress


def llm_steps(config: RunConfig, kb, client=None, progress: ProgressFactory | None = None, *,
              predictor=None, embedder=None) -> list[Step]:
    """The step list for ``config.extra``'s flags; ``client`` is needed for ``llm`` and ``judge``."""
    flags = config.extra
    if (flags.get("llm") or flags.get("judge")) and client is None:
        raise ConfigError("--llm and --judge need an LLM: set OPENAI_API_KEY or OPENAI_BASE_URL, "
                          "and NL2SPARQL_LLM_MODEL")
    c = config
    n = max(1, int(flags.get("llm_candidates", 3)))
    steps = default_steps(config, kb, _named)
    out: list[Step] = []
    for step in steps:
        op = step.operator
        if isinstance(op, PoolWriter):
            step = Step(ProvenancePoolWriter(op.config, progress=op.progress), step.keys)
        out.append(step)
        if isinstance(op, PatternComposer) and flags.get("llm"):
            share = float(flags.get("llm_share", 0.3))
            out.append(Step(LLMSparqlGenerator(
                {"requests": math.ceil(c.candidates * share / n), "per_request": n, "patterns": c.patterns,
                 "seed": c.seed, "share": share, "pool": flags.get("llm_pool")},
                client=client, kb=kb, progress=_named("llm sparql")), {"input_key": "sparql", "output_key": "sparql"}))
        elif isinstance(op, QuestionGenerator) and flags.get("llm"):
            out.append(Step(LLMQuestionGenerator(
                {"candidates": n, "mode": flags.get("llm_question_mode", "fill_missing"), "seed": c.seed},
                client=client, embedder=embedder, progress=_named("llm questions")),
                {"input_key": "sparql", "output_key": "nl"}))
        elif isinstance(op, Deduplicator):
            if flags.get("judge"):
                out.append(Step(CorrespondenceJudge(
                    {"retries": int(flags.get("judge_retries", 2)), "seed": c.seed, "limit": c.target},
                    client=client, progress=_named("judge")),
                    {"input_key": "sparql", "question_key": "nl", "output_key": "judge"}))
        elif isinstance(op, RoundTripCheck) and flags.get("round_trip"):
            # --round-trip: rejection when asked, and the caller's predictor when given
            out[-1] = Step(RoundTripCheck(
                {**op.config, "reject": bool(flags.get("round_trip_reject", False))},
                kb=kb, predictor=predictor if predictor is not None else op.predictor, progress=op.progress),
                step.keys)
    if progress is not None:
        for step in out:
            step.operator.progress = progress(step.operator.progress.step_name)
    return out


def build_pipeline(config: RunConfig, kb, client=None, progress: ProgressFactory | None = None, *,
                   predictor=None, embedder=None) -> GenerationPipeline:
    """A :class:`GenerationPipeline` running :func:`llm_steps`."""
    steps = llm_steps(config, kb, client, progress, predictor=predictor, embedder=embedder)
    return GenerationPipeline(config, kb, progress=progress, steps=steps)


def record_llm(pipeline: GenerationPipeline, manifest: dict, client=None) -> dict:
    """Add the LLM settings (no key) and usage to the manifest, and save it."""
    flags = {k: v for k, v in pipeline.config.extra.items() if k in ("llm", "judge", "round_trip")}
    manifest["llm"] = {"flags": flags,
                       "config": client.config.to_dict() if client is not None else None,
                       "usage": client.usage.to_dict() if client is not None else None}
    atomic_write_text(pipeline.manifest_path, json.dumps(manifest, ensure_ascii=False, indent=2))
    return manifest
