"""Round-trip check: translate each question back to SPARQL and score it against the gold.

A *predictor* turns a question into SPARQL: any callable ``question -> str |
None``, or an object with ``translate(question)`` returning a string or a
result with a ``sparql`` attribute (the offline translator, or the LLM one).
The prediction is scored against the row's query with the project's scorer
(:class:`nl2sparql.score.runner.Scorer`) on the same KB; the row gets
``round_trip: {strict, relaxed, f1, error}``. By default a failed round trip
only annotates the row (the translator is weaker than the generator);
``reject: true`` drops rows whose round trip is not strict (``round_trip_failed``).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..errors import ConfigError
from ..score.runner import Scorer
from .base import Operator, StepReport
from .dedup import normalise_query
from .defects import projected_names
from .execution_filter import answer_signature

Predictor = Callable[[str], Optional[str]]


def as_predictor(obj: Any) -> Predictor:
    """A predictor from a callable or an object with ``translate``."""
    translate = getattr(obj, "translate", None)
    fn = translate if callable(translate) else obj
    if not callable(fn):
        raise ConfigError(f"round trip: {type(obj).__name__} is neither callable nor has translate()")

    def predict(question: str) -> Optional[str]:
        result = fn(question)
        return result if result is None or isinstance(result, str) else getattr(result, "sparql", None)
    return predict


def default_predictor(kb=None) -> Predictor:
    """The offline translator (the ``Translator`` façade, with the shipped examples) as a predictor."""
    from ..translate.translator import Translator
    return as_predictor(Translator(kb=kb))


class RoundTripCheck(Operator):
    """Writes ``round_trip``. Config: ``reject`` (default false), ``timeout``, ``max_rows``, ``also``
    (more question keys to translate, e.g. ``["nl_en"]``: each gets its own entry, and the top-level
    verdict holds for all of them), ``quick`` (default false: for every item of a generation run, a
    prediction with another number of columns is not strict without running it, and one runs at most
    2 s; ``relaxed`` is then ``None``, not checked).

    Services: ``kb`` (the pipeline's KB), ``predictor`` (default: the offline translator). A prediction
    that is the gold query itself (same tokens up to variable names) is strict without running it, so the
    check costs little when the translator reads the question as the generator meant it.
    """

    input_keys = ("cid", "sparql", "nl")
    output_keys = ("round_trip",)

    def __init__(self, config: dict | None = None, kb=None, predictor: Any = None, **kw):
        super().__init__(config, **kw)
        self.kb = kb
        #: the predictor given (wrapped), else ``None``: the run then uses :func:`default_predictor`
        self.predictor = as_predictor(predictor) if predictor is not None else None

    def run(self, storage, input_key: str = "sparql", question_key: str = "nl",
            output_key: str = "round_trip") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        predict = self.predictor or default_predictor(self.kb)
        scorer = Scorer(self.kb, timeout=float(self.config.get("timeout", 10.0)),
                        max_rows=int(self.config.get("max_rows", 10_000)))
        reject = bool(self.config.get("reject", False))
        keys = [question_key] + [k for k in self.config.get("also", ()) if k != question_key]
        kept, rejects, strict = [], [], 0
        for i, row in enumerate(rows):
            results = {key: self._one(predict, scorer, row, input_key, key) for key in keys if row.get(key)}
            result = results.get(question_key) or {"strict": False, "relaxed": False, "f1": 0.0, "error": "missing"}
            if len(keys) > 1:
                result = {"strict": all(r["strict"] for r in results.values()),
                          "relaxed": None if any(r["relaxed"] is None for r in results.values())
                          else all(r["relaxed"] for r in results.values()),
                          "f1": min(r["f1"] for r in results.values()),
                          "error": next((r["error"] for r in results.values() if r["error"]), None), **results}
            strict += result["strict"]
            if reject and not result["strict"]:
                report.rejected["round_trip_failed"] += 1
                rejects.append({"cid": row["cid"], "reason": "round_trip_failed", output_key: result,
                                question_key: row[question_key]})
            else:
                kept.append({**row, output_key: result})
            self.progress(i + 1, len(rows))
        storage.write(kept)
        self.write_rejects(storage, rejects)
        report.kept = len(kept)
        report.extra["round_trip_strict"] = strict
        return report

    def _one(self, predict, scorer, row: dict, input_key: str, question_key: str) -> dict:
        """Translate one question of ``row`` and score the prediction against the gold.

        Cheap first: the gold itself (up to the order of its lines) is strict without running anything;
        a prediction whose answer has the gold's signature (from the execution filter) is strict after
        running the prediction alone; only the rest go through the scorer.
        """
        try:
            predicted, error = predict(row[question_key]), None
        except Exception as exc:  # noqa: BLE001 - a translator failure is a failed round trip
            predicted, error = None, f"translator: {' '.join(str(exc).split())[:200]}"
        perfect = {"strict": True, "relaxed": True, "f1": 1.0, "error": None}
        if predicted and same_query(predicted, row[input_key]):
            return perfect
        quick = bool(self.config.get("quick", False))
        if predicted and quick and len(projected_names(predicted)) != len(projected_names(row[input_key])):
            # strict needs the gold's columns exactly: no need to run it (relaxed was not checked)
            return {"strict": False, "relaxed": None, "f1": 0.0, "error": "column_mismatch"}
        if predicted and row.get("answer_signature") and self.kb is not None:
            timeout = float(self.config.get("timeout", 10.0))
            try:
                table = self.kb.execute(predicted, timeout=min(timeout, 2.0) if quick else timeout,
                                        max_rows=int(self.config.get("max_rows", 10_000)))
                if table.form != "ask" and answer_signature(table) == row["answer_signature"]:
                    return perfect
            except Exception:  # noqa: BLE001 - the scorer below reports the failure
                if quick:
                    return {"strict": False, "relaxed": None, "f1": 0.0, "error": "timeout"}
        score = scorer.score(row[input_key], predicted, row["cid"])
        return {"strict": score.strict, "relaxed": score.relaxed, "f1": round(score.f1, 4),
                "error": error or score.error}


def same_query(a: str, b: str) -> bool:
    """True when two queries are the same text up to variable names, or up to the order of their lines."""
    if normalise_query(a) == normalise_query(b):
        return True
    return sorted(line.rstrip() for line in a.splitlines()) == sorted(line.rstrip() for line in b.splitlines())
