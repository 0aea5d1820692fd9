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
    """The offline translator as a predictor: the ``Translator`` façade, else ``OfflineTranslator``."""
    try:
        from ..translate.translator import Translator
    except ImportError:
        try:
            from ..translate.offline import OfflineTranslator
        except ImportError:
            raise ConfigError("--round-trip needs the offline translator (nl2sparql.translate), "
                              "which this install lacks") from None
        return as_predictor(OfflineTranslator())
    try:
        translator = Translator(kb=kb)
    except TypeError:
        translator = Translator()
    return as_predictor(translator)


class RoundTripCheck(Operator):
    """Writes ``round_trip``. Config: ``reject`` (default false), ``timeout``, ``max_rows``.

    Services: ``kb`` (the pipeline's KB), ``predictor`` (default: the offline translator).
    """

    input_keys = ("cid", "sparql", "nl")
    output_keys = ("round_trip",)

    def __init__(self, config: dict | None = None, kb=None, predictor: Any = None, **kw):
        super().__init__(config, **kw)
        self.kb = kb
        self._predictor = as_predictor(predictor) if predictor is not None else None

    def run(self, storage, input_key: str = "sparql", question_key: str = "nl",
            output_key: str = "round_trip") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        predict = self._predictor or default_predictor(self.kb)
        scorer = Scorer(self.kb, timeout=float(self.config.get("timeout", 10.0)),
                        max_rows=int(self.config.get("max_rows", 10_000)))
        reject = bool(self.config.get("reject", False))
        kept, rejects, strict = [], [], 0
        for i, row in enumerate(rows):
            try:
                predicted, error = predict(row[question_key]), None
            except Exception as exc:  # noqa: BLE001 - a translator failure is a failed round trip
                predicted, error = None, f"translator: {' '.join(str(exc).split())[:200]}"
            score = scorer.score(row[input_key], predicted, row["cid"])
            result = {"strict": score.strict, "relaxed": score.relaxed, "f1": round(score.f1, 4),
                      "error": error or score.error}
            strict += score.strict
            if reject and not score.strict:
                report.rejected["round_trip_failed"] += 1
                rejects.append({"cid": row["cid"], "reason": "round_trip_failed", output_key: result,
                                question_key: row[question_key], "predicted": predicted})
            else:
                kept.append({**row, output_key: result})
            self.progress(i + 1, len(rows))
        storage.write(kept)
        self.write_rejects(storage, rejects)
        report.kept = len(kept)
        report.extra["round_trip_strict"] = strict
        return report
