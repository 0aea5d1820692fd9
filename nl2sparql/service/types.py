"""The results of :mod:`nl2sparql.api`: typed dataclasses holding JSON-ready values only.

Every result has ``to_dict()`` (plain dicts, lists, strings, numbers, booleans
and ``None``), so the CLI's ``--json``, the MCP server's structured output and
the web UI all show the same thing.
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass, field
from typing import Any, Optional


class Result:
    """Base of the API's results."""

    def to_dict(self) -> dict:
        """JSON-ready view."""
        return asdict(self)


@dataclass
class Rows(Result):
    """A query answer: SELECT rows, an ASK boolean, or CONSTRUCT/DESCRIBE triples (``s p o``).

    Cells use the SPARQL 1.1 JSON results encoding (``{"type": "uri"|"literal"|"bnode",
    "value": …, "xml:lang"?: …, "datatype"?: …}``) or ``None`` when unbound.
    """

    form: str
    variables: list[str] = field(default_factory=list)
    rows: list[list[Optional[dict]]] = field(default_factory=list)
    boolean: Optional[bool] = None
    truncated: bool = False
    row_cap: Optional[int] = None
    elapsed_ms: float = 0.0

    @staticmethod
    def from_table(table, row_cap: int | None = None) -> "Rows":
        """Convert a :class:`~nl2sparql.kb.results.ResultTable`."""
        return Rows(table.form, list(table.variables),
                    [[None if t is None else t.to_json() for t in row] for row in table.rows],
                    table.boolean, table.truncated, row_cap, round(table.elapsed * 1000, 2))

    def to_table(self):
        """Back to a :class:`~nl2sparql.kb.results.ResultTable` (for the scorer)."""
        from ..kb.results import ResultTable, Term
        return ResultTable(self.form, list(self.variables),
                           [tuple(None if c is None else Term.from_json(c) for c in row) for row in self.rows],
                           self.boolean, self.truncated, self.elapsed_ms / 1000)

    @property
    def count(self) -> int:
        """Number of rows (0 for ASK)."""
        return len(self.rows)

    def values(self) -> list[list[Optional[str]]]:
        """The rows as plain strings (IRIs and literal values, ``None`` when unbound)."""
        return [[None if c is None else c["value"] for c in row] for row in self.rows]

    def records(self) -> list[dict[str, Optional[str]]]:
        """Rows as ``{variable: value}`` dicts of plain strings."""
        return [dict(zip(self.variables, row)) for row in self.values()]

    def to_csv(self) -> str:
        """CSV with one header line (values only, as SPARQL 1.1 CSV results)."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        if self.form == "ask":
            writer.writerows([["boolean"], ["true" if self.boolean else "false"]])
        else:
            writer.writerow(self.variables)
            writer.writerows([["" if v is None else v for v in row] for row in self.values()])
        return buf.getvalue()

    def to_sparql_json(self) -> dict:
        """SPARQL 1.1 JSON results (plus ``truncated`` and ``row_cap`` when the row cap cut the answer)."""
        if self.form == "ask":
            return {"head": {}, "boolean": bool(self.boolean)}
        bindings = [{v: c for v, c in zip(self.variables, row) if c is not None} for row in self.rows]
        out: dict[str, Any] = {"head": {"vars": list(self.variables)}, "results": {"bindings": bindings}}
        if self.truncated:
            out["truncated"] = True
            out["row_cap"] = self.row_cap
        return out


@dataclass
class Issue(Result):
    """One broken LiITA rule (or a hint) found by the validator."""

    rule: str
    severity: str
    message: str
    fix: Optional[str] = None


@dataclass
class ValidationResult(Result):
    """What :func:`nl2sparql.api.validate` found; ``ok`` when nothing blocks the query."""

    query: str
    ok: bool
    issues: list[Issue] = field(default_factory=list)
    executed: bool = False


@dataclass
class FixResult(Result):
    """A query with every safe fix applied, the fixes, and the issues before and after."""

    query: str
    fixed: str
    fixes: list[str] = field(default_factory=list)
    issues_before: list[Issue] = field(default_factory=list)
    issues_after: list[Issue] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """True when at least one fix applied."""
        return bool(self.fixes)


@dataclass
class Analysis(Result):
    """How the offline reader understands a question, without building SPARQL."""

    question: str
    language: str
    patterns: dict[str, float]
    slots: dict[str, Any]
    shape: str
    complexity: str
    readings: list[dict] = field(default_factory=list)


@dataclass
class Example(Result):
    """A retrieved pool example."""

    rank: int
    id: str
    score: float
    question: str
    patterns: dict[str, float]
    sparql: str
    components: dict[str, Optional[float]] = field(default_factory=dict)


@dataclass
class RetrievalResult(Result):
    """The pool examples most similar to a question."""

    question: str
    examples: list[Example]
    detected_patterns: dict[str, float] = field(default_factory=dict)
    weights: dict[str, float] = field(default_factory=dict)
    pools: list[str] = field(default_factory=list)
    pool_size: int = 0
    warnings: list[str] = field(default_factory=list)


@dataclass
class TranslationResult(Result):
    """A translated question: the SPARQL, how it was reached, and the rows when executed.

    ``off_topic`` is the one line saying the question is not about LiITA
    (:func:`~nl2sparql.service.topic.off_topic`); the SPARQL is then empty.
    """

    question: str
    sparql: str
    mode: str
    source: str
    shape: str
    patterns: dict[str, float]
    slots: dict[str, Any]
    confidence: float
    examples: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    rows: Optional[Rows] = None
    elapsed_ms: float = 0.0
    llm: Optional[dict] = None
    off_topic: Optional[str] = None


@dataclass
class OntologySearchResult(Result):
    """Ontology terms matching a description, best first, and what produced the ranking."""

    query: str
    hits: list[dict]
    detected_patterns: dict[str, float] = field(default_factory=dict)
    named_words_ignored: list[str] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    kb: Optional[str] = None


@dataclass
class KBInfo(Result):
    """What a knowledge base holds: graphs with triple, class and property counts."""

    kb: str
    triples: int
    graphs: list[dict]


@dataclass
class LoadResult(Result):
    """An on-disk store built or extended from RDF files."""

    store: str
    files: list[str]
    quads: int
    seconds: float
    #: Quads per named graph of the store after the load, largest first.
    graphs: dict[str, int] = field(default_factory=dict)


@dataclass
class GenerationResult(Result):
    """A generation run: what was kept and rejected, where the pool and manifest are."""

    out: str
    kept: int
    target: int
    rejected: dict[str, int]
    executed: int
    seconds: float
    stats: dict
    manifest: str
    llm: Optional[dict] = None
    #: ``i/n`` for one shard of a sharded run; the number of shards for a run made and merged by an executor.
    shard: Optional[str] = None
    shards: Optional[int] = None


@dataclass
class MergeResult(Result):
    """Shard pools merged into one: kept, dropped across shards (by reason), short of the target."""

    out: str
    kept: int
    target: int
    items_in: int
    rejected: dict[str, int]
    short: int
    units: int
    shards: list[dict]
    manifest: str
    stats: dict


@dataclass
class ExportResult(Result):
    """A pool exported as fine-tuning records."""

    out: str
    format: str
    records: int


@dataclass
class ScoreResult(Result):
    """Scores of predictions against gold: the summary, per-item verdicts, and report files."""

    summary: dict
    items: list[dict]
    reports: dict[str, str] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    predictions: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class CompareResult(Result):
    """Several runs scored against one gold: each run's measures, the tables by pattern, difficulty and language,
    the items where the runs differ, and the report files (see :mod:`nl2sparql.score.compare`)."""

    runs: list[str]
    items: int
    agents: dict
    by_pattern: dict
    by_difficulty: dict
    by_language: dict
    differences: list[dict]
    reports: dict[str, str] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass
class AskResult(Result):
    """An external agent asked every question of a pool: the predictions file, counts, latencies, and the
    score when it was asked for."""

    predictions: str
    agent: str
    asked: int
    answered: int
    errors: int
    resumed: int
    skipped: int
    seconds: float
    latency_ms: dict[str, float] = field(default_factory=dict)
    error_examples: list[str] = field(default_factory=list)
    score: Optional[ScoreResult] = None
    warnings: list[str] = field(default_factory=list)
