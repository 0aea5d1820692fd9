"""Questions: translate, analyze, retrieve examples, evaluate a translator."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from ..checks import check_count, check_question
from ..errors import ConfigError, DataError
from ..kb import KnowledgeBase
from .kbs import KBLike, as_choice, limits, shared_kb, using_kb
from .llm import llm_client
from .pools import PoolsLike, resolve_pool, resolve_pools
from .topic import off_topic
from .types import Analysis, Example, Issue, RetrievalResult, Rows, ScoreResult, TranslationResult

Progress = Callable[[int, int], None]
MODES = ("offline", "llm")
#: The most LLM repair rounds (each may take the whole time budget).
MAX_ROUNDS = 10


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ConfigError(f"unknown translation mode {mode!r} (use offline or llm)")


def translate(question: str, *, mode: str = "offline", execute: bool = False, kb: KBLike = None,
              pools: PoolsLike = None, k: int = 5, embedder: str | None = None, llm=None, rounds: int = 2,
              timeout: float | None = None, max_rows: int | None = None,
              progress: Progress | None = None, notify: Callable[[str], None] | None = None) -> TranslationResult:
    """Translate an Italian or English question into LiITA SPARQL.

    ``mode="offline"`` (default) composes the query from the pattern catalogue
    in milliseconds; ``mode="llm"`` asks the configured LLM (``llm``: an
    :class:`~nl2sparql.llm.LLMConfig`, else the environment and config file)
    with validation and ``rounds`` repair rounds, falling back to offline.
    ``pools`` are the example pools for retrieval (default: the shipped ones).
    With ``execute`` the rows are attached (``rows``). ``progress(done, total)``
    follows the first embedding of a pool; ``notify(line)`` receives the LLM
    path's progress lines (rounds, retries). A question that is not about LiITA
    (:func:`~.topic.off_topic`) gets no query: ``off_topic`` says why.
    """
    from ..translate.translator import Translator

    _check_mode(mode)
    check_question(question)
    if k < 1:
        raise ConfigError("k (examples to retrieve) must be at least 1")
    check_count(rounds, "--rounds (LLM repair rounds)", 0, MAX_ROUNDS)
    paths = resolve_pools(pools)
    reason = off_topic(question)
    if reason is not None:
        return TranslationResult(question=question, sparql="", mode=mode, source="none", shape="none", patterns={},
                                 slots={}, confidence=0.0, off_topic=reason)
    client = llm_client(llm) if mode == "llm" else None
    if client is not None and notify is not None:
        client.notify = notify
    try:
        if execute or mode == "llm":
            with using_kb(kb) as store:
                translator = Translator(paths, kb=store, mode=mode, k=k, embedder=embedder, llm_client=client,
                                        llm_rounds=rounds, progress=progress)
                result = translator.translate(question)
                rows = None
                if execute:
                    timeout, max_rows = limits(kb, timeout, max_rows)
                    table = store.execute(result.sparql, timeout=timeout, max_rows=max_rows)
                    rows = Rows.from_table(table, max_rows if max_rows is not None else store.limits.max_rows)
                    if not table.rows and table.form != "ask":
                        result.warnings.append("the query returns no rows on this KB")
        else:
            # the KB (the process's shared one) is opened only when an English word must be mapped to its lemmas
            choice = None if isinstance(kb, KnowledgeBase) else as_choice(kb)
            translator = Translator(paths, mode=mode, k=k, embedder=embedder, progress=progress,
                                    concepts_kb=kb if choice is None else lambda: shared_kb(choice))
            result, rows = translator.translate(question), None
    finally:
        if client is not None:
            client.close()
    return TranslationResult(
        question=result.question, sparql=result.sparql, mode=result.mode, source=result.source,
        shape=result.shape, patterns=dict(result.patterns), slots=_json_slots(result.slots),
        confidence=result.confidence, examples=[e.to_dict() for e in result.examples],
        warnings=list(result.warnings), notes=list(translator.warnings),
        issues=[Issue(i.rule, i.severity, i.message, i.fix) for i in result.issues], fixes=list(result.fixes),
        rows=rows, elapsed_ms=round(result.elapsed_ms, 2), llm=result.llm)


def _json_slots(slots: dict) -> dict:
    """Slots without empty values (the plan description stays: it says how the query was built)."""
    return {k: v for k, v in slots.items() if v not in (None, [], {}, "", False)}


def analyze(question: str) -> Analysis:
    """How the offline reader understands a question: language, patterns, slots, shape, complexity, readings."""
    from ..patterns import detect_patterns
    from ..translate.plans import plans_for
    from ..translate.slots import extract_slots

    check_question(question)
    slots = extract_slots(question)
    plans = plans_for(slots)
    best = plans[0]
    found = {k: v for k, v in slots.to_dict().items() if k != "lang"}
    steps = len(best.steps) + (1 if best.word else 0)
    complexity = "simple" if steps <= 1 else "moderate" if steps == 2 else "complex"
    return Analysis(question=question, language=slots.lang, patterns=detect_patterns(question),
                    slots=_json_slots(found), shape=best.shape, complexity=complexity,
                    readings=[p.describe() for p in plans])


def retrieve(question: str, *, k: int = 5, pools: PoolsLike = None, embedder: str | None = None,
             cache: bool = True, progress: Progress | None = None) -> RetrievalResult:
    """The pool examples most similar to a question (dense embeddings + BM25 + pattern overlap).

    The index of each pool is built once and cached on disk (``cache=False``: in memory only).
    """
    from ..patterns import detect_patterns
    from ..translate.retrieval import HybridRetriever
    from ..translate.translator import get_retriever

    check_question(question)
    if k < 1:
        raise ConfigError("k (examples to retrieve) must be at least 1")
    paths = resolve_pools(pools)
    if not paths:
        raise DataError("no example pool: pass one (a .jsonl pool file)")
    if cache:
        retriever = get_retriever(paths, embedder=embedder, progress=progress)
    else:
        retriever = HybridRetriever.from_pools(paths, embedder=embedder, pattern_detector=detect_patterns,
                                               cache=False, progress=progress)
    hits = retriever.retrieve(question, k=k)
    examples = [Example(rank=h.rank, id=str(h.item.get("id", "")), score=round(float(h.score), 6),
                        question=h.matched_text, patterns=dict(h.item.get("patterns") or {}),
                        sparql=str(h.item.get("sparql") or ""), components=dict(h.components)) for h in hits]
    return RetrievalResult(question, examples, detect_patterns(question), dict(retriever.weights),
                           [str(p) for p in paths], len(retriever), list(retriever.warnings))


def evaluate(questions: str | Path, *, translator: str = "offline", lang: str = "it", split: str | None = None,
             variant: str | None = None, limit: int | None = None, kb: KBLike = None, match=None,
             out: str | Path | None = None, force: bool = False, timeout: float | None = None,
             max_rows: int | None = None, settings: dict | None = None, llm=None,
             progress: Progress | None = None) -> ScoreResult:
    """Run a translator over a pool (or question file) and score its SPARQL against the gold by execution.

    ``translator`` is ``offline``, ``llm``, a registered name, or ``package.module:factory``;
    the items being evaluated are never retrieved as examples. ``out`` also
    writes ``report.json``, ``report.md``, a chart and ``predictions.jsonl``; a
    directory that already holds a report is refused unless ``force``. ``llm``
    (an :class:`~nl2sparql.llm.LLMConfig`) is the ``llm`` translator's LLM
    (default: the environment and config file).
    """
    from ..score.data import load_gold
    from ..score.evaluate import EvalContext, evaluate_items, make_predictor
    from ..score.report import JSON_NAME, summarize, write_jsonl, write_reports
    from ..translate import translator as _registers  # noqa: F401 - registers offline and llm
    from .scoring import match_options

    if out is not None and not force and (Path(out) / JSON_NAME).exists():
        raise DataError(f"{out} already holds a report; pass --force to replace it (nothing was changed)")
    options = match_options(match)
    items = load_gold(Path(resolve_pool(questions)), split)
    if limit is not None:
        if limit < 1:
            raise ConfigError("limit must be at least 1")
        items = items[:limit]
    timeout, max_rows = limits(kb, timeout, max_rows)
    with using_kb(kb) as store:
        extra = {"llm": llm} if llm is not None else {}
        predictor = make_predictor(translator, EvalContext(items, store, lang, variant, {**(settings or {}), **extra}))
        run = evaluate_items(store, items, predictor, lang=lang, variant=variant, options=options,
                             timeout=timeout, max_rows=max_rows, progress=progress)
        kb_name = store.description
    meta = {"questions": str(questions), "split": split or "all", "translator": translator, "lang": lang,
            "variant": variant or "-", "kb": kb_name, "timeout": timeout, "max_rows": max_rows,
            "skipped": len(run.skipped)}
    reports: dict[str, str] = {}
    if out is not None:
        paths = write_reports(Path(out), run.scores, options.to_dict(), meta)
        paths["predictions"] = Path(out) / "predictions.jsonl"
        write_jsonl(paths["predictions"], run.predictions)
        reports = {k: str(v) for k, v in paths.items()}
    warnings = []
    if run.skipped:
        which = f" ({variant})" if variant else ""
        warnings.append(f"{len(run.skipped)} item(s) have no question in {lang}{which} and were skipped")
    return ScoreResult(summarize(run.scores), [s.to_dict() for s in run.scores], reports, meta,
                       run.predictions, warnings)
