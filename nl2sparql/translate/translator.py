"""The translator façade used by the CLI and by ``nl2sparql evaluate``.

>>> from nl2sparql.translate.translator import Translator
>>> t = Translator()                                   # offline, default pools, no KB
>>> result = t.translate("Quali sostantivi esprimono paura?")
>>> result.sparql, result.patterns, result.confidence

``Translator(pools=…, kb=…, mode="offline"|"llm")``: ``pools`` are example
pool files for retrieval (default: every ``nl2sparql/data/pools/*.jsonl``; none is fine,
retrieval is then skipped); ``exclude_ids`` / ``exclude_splits`` keep items
out of retrieval (held-out evaluation); ``kb`` executes queries
(``translate(…, execute=True)``) and validates LLM answers; ``concepts_kb`` (a KB,
or a callable opening one when a word must be mapped) is the KB whose lemmas English
words map to, when it is not ``kb``. Retrievers are built once per (pools, exclusions,
embedder) and cached for the process.

Registers the ``offline`` and ``llm`` translators for ``evaluate``: the items
being evaluated are always excluded from retrieval.
"""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from ..errors import ConfigError, DataError, Nl2SparqlError
from .offline import OfflineResult, OfflineTranslator
from .validate import Issue, validate

MODES = ("offline", "llm")
_RETRIEVERS: dict[tuple, object] = {}
_LOCK = threading.Lock()


@dataclass
class Translation:
    """A translated question: the SPARQL and how it was reached (plus rows when executed)."""

    question: str
    sparql: str
    mode: str
    source: str
    shape: str
    patterns: dict[str, float]
    slots: dict
    examples: list = field(default_factory=list)
    confidence: float = 0.0
    warnings: list[str] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    rows: object = None
    elapsed_ms: float = 0.0
    llm: dict | None = None

    def to_dict(self) -> dict:
        """JSON-ready view (rows as the result table's JSON)."""
        return {"question": self.question, "sparql": self.sparql, "mode": self.mode, "source": self.source,
                "shape": self.shape, "patterns": self.patterns, "slots": self.slots,
                "examples": [e.to_dict() for e in self.examples], "confidence": self.confidence,
                "warnings": self.warnings, "issues": [i.to_dict() for i in self.issues], "fixes": self.fixes,
                "rows": self.rows.to_json() if self.rows is not None else None,
                "elapsed_ms": round(self.elapsed_ms, 2), "llm": self.llm}


def default_pools() -> list[Path]:
    """Every ``*.jsonl`` pool in ``nl2sparql/data/pools/``."""
    from ..paths import pools_dir
    folder = pools_dir()
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def get_retriever(pools: Sequence[Path], *, exclude_ids: Iterable[str] = (), exclude_splits: Iterable[str] = (),
                  embedder: str | None = None, progress=None):
    """A cached :class:`~.retrieval.HybridRetriever` over ``pools`` minus the excluded items (``None`` if empty).

    ``progress(done, total)`` is called while pool questions are embedded (only when no index is cached yet).
    """
    pools = [Path(p) for p in pools]
    for p in pools:
        if not p.is_file():
            raise DataError(f"{p}: no such pool file (check --pool)")
    ids, splits = frozenset(map(str, exclude_ids)), frozenset(exclude_splits)
    key = (tuple(str(p.resolve()) for p in pools), tuple(p.stat().st_mtime_ns for p in pools), ids, splits,
           embedder)
    with _LOCK:
        if key not in _RETRIEVERS:
            _RETRIEVERS[key] = _build_retriever(pools, ids, splits, embedder, progress)
        return _RETRIEVERS[key]


def _build_retriever(pools: list[Path], ids: frozenset, splits: frozenset, embedder, progress=None):
    from ..patterns import detect_patterns
    from .retrieval import HybridRetriever
    if ids or splits:
        pools = [_filtered(p, ids, splits) for p in pools]
        pools = [p for p in pools if p is not None]
    if not pools:
        return None
    retriever = HybridRetriever.from_pools(pools, embedder=embedder, pattern_detector=detect_patterns,
                                           progress=progress)
    if retriever.embedder is not None:
        retriever.embedder.encode(["warm-up"])  # load the model now, not during the first translation
    return retriever


def _filtered(pool: Path, ids: frozenset, splits: frozenset) -> Path | None:
    """A copy of ``pool`` without the excluded items, in the cache (reused while the pool is unchanged)."""
    from ..fileio import read_pool, write_jsonl
    from ..paths import cache_dir
    items, digest = read_pool(pool)
    tag = hashlib.sha256("\n".join([digest, *sorted(ids), "|", *sorted(splits)]).encode()).hexdigest()[:16]
    target = cache_dir() / "translate-pools" / f"{pool.stem}-{tag}.jsonl"
    kept = [i for i in items if str(i.get("id")) not in ids and str(i.get("split")) not in splits]
    if not kept:
        return None
    if len(kept) == len(items):
        return pool  # nothing excluded: keep the pool's own cached index
    if not target.is_file():
        write_jsonl(target, kept)
    return target


def _default_kb():
    """The KB chosen by the environment, else the embedded sample (opened when a word must be mapped)."""
    from ..kb import open_kb
    return open_kb()


class Translator:
    """Offline or LLM translation of questions into LiITA SPARQL (see the module docstring)."""

    def __init__(self, pools: Sequence[Path] | None = None, kb=None, mode: str = "offline", *, k: int = 5,
                 embedder: str | None = None, exclude_ids: Iterable[str] = (), exclude_splits: Iterable[str] = (),
                 llm_client=None, llm_rounds: int = 2, check: bool = True, progress=None, concepts_kb=None):
        if mode not in MODES:
            raise ConfigError(f"unknown translation mode {mode!r} (use offline or llm)")
        self.mode, self.kb, self.check = mode, kb, check
        self.pools = list(pools) if pools is not None else default_pools()
        self.warnings: list[str] = []
        retriever = get_retriever(self.pools, exclude_ids=exclude_ids, exclude_splits=exclude_splits,
                                  embedder=embedder, progress=progress) if self.pools else None
        if retriever is None:
            self.warnings.append("no example pool: translating from the catalogue alone (pass --pool FILE)")
        else:
            self.warnings.extend(getattr(retriever, "warnings", []))
        from .concepts import ConceptMapper
        # English content words map to the Italian lemmas of this KB (the default KB when none is given)
        lemmas_of = concepts_kb if concepts_kb is not None else kb if kb is not None else _default_kb
        self.offline = OfflineTranslator(retriever, k=k, concepts=ConceptMapper(lemmas_of, embedder=embedder))
        self.llm = None
        if mode == "llm":
            from .llm_translate import LLMTranslator
            if llm_client is None:
                from ..llm import LLMClient, LLMConfig
                llm_client = LLMClient(LLMConfig.resolve())
            self.llm = LLMTranslator(llm_client, self.offline, kb=kb, rounds=llm_rounds, examples=k)

    def translate(self, question: str, execute: bool = False) -> Translation:
        """Translate ``question``; with ``execute`` (and a KB) the rows are attached."""
        start = time.perf_counter()
        if self.llm is not None:
            outcome = self.llm.translate(question)
            base: OfflineResult = outcome.offline
            sparql, source = outcome.sparql, outcome.source
            issues, fixes = outcome.issues, outcome.fixes
            warnings = base.warnings + outcome.warnings
            llm = outcome.to_dict()
        else:
            base = self.offline.translate(question)
            sparql, source, fixes, llm = base.sparql, base.source, [], None
            warnings = list(base.warnings)
            # every query is checked against the one rule registry, the catalogue's too (its blocks keep the rules
            # by construction: an issue there is a catalogue defect, shown rather than hidden)
            issues = validate(sparql, execute=False) if self.check else []
        elapsed = (time.perf_counter() - start) * 1000
        result = Translation(question, sparql, self.mode, source, base.shape, base.patterns, base.slots,
                             base.examples, base.confidence, warnings, issues, fixes, None, elapsed, llm)
        if execute:
            if self.kb is None:
                raise ConfigError("no knowledge base to execute the query on")
            result.rows = self.kb.execute(sparql)
            if not result.rows.rows and result.rows.form != "ask":
                result.warnings.append("the query returns no rows on this KB")
        return result


class TranslatorPredictor:
    """An ``evaluate`` predictor: the items under evaluation are excluded from retrieval.

    ``ctx.settings`` may name ``pools`` (comma-separated files; default: the
    shipped pools), an ``embedder`` and the ``llm`` settings (an ``LLMConfig``;
    default: the environment and config file).
    """

    def __init__(self, ctx, mode: str = "offline"):
        settings = getattr(ctx, "settings", None) or {}
        pools = settings.get("pools")
        pool_paths = [Path(p) for p in pools.split(",")] if pools else None
        client = None
        if mode == "llm" and settings.get("llm") is not None:
            from ..llm import LLMClient
            client = LLMClient(settings["llm"])
        self.translator = Translator(pool_paths, kb=ctx.kb, mode=mode, exclude_ids={i.id for i in ctx.items},
                                     embedder=settings.get("embedder"), check=False, llm_client=client)

    def predict(self, question: str, lang: str) -> str:
        """The translated SPARQL of ``question``."""
        try:
            return self.translator.translate(question).sparql
        except Nl2SparqlError:
            return ""


def _register() -> None:
    from ..score.evaluate import PREDICTORS, register_predictor
    if "offline" not in PREDICTORS:
        register_predictor("offline", lambda ctx: TranslatorPredictor(ctx, "offline"))
    if "llm" not in PREDICTORS:
        register_predictor("llm", lambda ctx: TranslatorPredictor(ctx, "llm"))


_register()
