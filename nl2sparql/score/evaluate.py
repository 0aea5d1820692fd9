"""Run a translator over questions and score its SPARQL by execution.

A translator is anything with ``predict(question, lang) -> sparql``
(:class:`Predictor`). Translators are built by name from :data:`PREDICTORS`,
a registry of factories taking an :class:`EvalContext`; plug a new one in
with :func:`register_predictor`::

    register_predictor("offline", lambda ctx: MyTranslator(kb=ctx.kb))

or name any factory on the command line as ``package.module:factory``.

Built in, for testing the scorer end to end: ``gold`` (an oracle that
returns the gold SPARQL of the question), ``perturbed`` (the gold with one
constant changed) and ``garbage`` (text that is not SPARQL).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol, Sequence, runtime_checkable

from ..errors import ConfigError, DataError, Nl2SparqlError
from ..kb.base import KnowledgeBase
from ..sparql.lexer import tokenize
from .data import GoldItem
from .matcher import MatchOptions
from .runner import ItemScore, Progress, Scorer

LANGS = ("it", "en")


@runtime_checkable
class Predictor(Protocol):
    """A translator: one question in, one SPARQL query out."""

    def predict(self, question: str, lang: str) -> str:
        """The SPARQL for ``question`` written in ``lang`` (``it`` or ``en``)."""
        ...


@dataclass
class EvalContext:
    """What a predictor factory may use: the items to be asked, the KB, the language, settings.

    ``settings`` are strings (``pools``, ``embedder``, ``max_attempts``…) and, for
    the ``llm`` translator, ``llm``: an :class:`~nl2sparql.llm.LLMConfig`.
    """

    items: Sequence[GoldItem]
    kb: Optional[KnowledgeBase] = None
    lang: str = "it"
    variant: Optional[str] = None
    settings: dict[str, Any] = field(default_factory=dict)


PredictorFactory = Callable[[EvalContext], Predictor]


class GoldPredictor:
    """Oracle: answers each known question with its gold SPARQL (tests the scorer, not a model)."""

    def __init__(self, ctx: EvalContext):
        self._answers: dict[tuple[str, str], str] = {}
        for item in ctx.items:
            for lang in LANGS:
                texts = [item.text(lang, ctx.variant), item.text(lang)]
                for text in texts:
                    if text:
                        self._answers.setdefault((lang, text), item.sparql)

    def predict(self, question: str, lang: str) -> str:
        """The gold SPARQL of ``question`` (empty when the question is unknown)."""
        return self._answers.get((lang, question), "")


class PerturbedGoldPredictor(GoldPredictor):
    """The gold SPARQL with one constant changed (see :func:`perturb_query`)."""

    def predict(self, question: str, lang: str) -> str:
        """The perturbed gold SPARQL of ``question``."""
        gold = super().predict(question, lang)
        return perturb_query(gold) if gold else ""


class GarbagePredictor:
    """Always answers with text that is not SPARQL."""

    def __init__(self, ctx: Optional[EvalContext] = None):
        pass

    def predict(self, question: str, lang: str) -> str:
        """Not a query."""
        return "this is not a SPARQL query"


def perturb_query(sparql: str) -> str:
    """Change one constant of the WHERE clause so that the answer changes.

    The first string literal after the first ``{`` gets a suffix; failing
    that, the first number is incremented; failing that, ``FILTER(false)``
    is added before the last ``}``. Works on lexer tokens, never inside
    comments.
    """
    tokens = tokenize(sparql, keep_trivia=True)
    opened = False
    for kind in ("string", "number"):
        opened = False
        for i, tok in enumerate(tokens):
            if tok.kind == "op" and tok.text == "{":
                opened = True
            if opened and tok.kind == kind:
                text = tok.text
                if kind == "string":
                    quote = 3 if text[:3] in ('"""', "'''") else 1
                    new = text[:-quote] + "_perturbed" + text[-quote:]
                else:
                    new = str(int(float(text)) + 1) if "." not in text and "e" not in text.lower() \
                        else str(float(text) + 1)
                return "".join(t.text if k != i else new for k, t in enumerate(tokens))
    for i in range(len(tokens) - 1, -1, -1):
        if tokens[i].kind == "op" and tokens[i].text == "}":
            return "".join(t.text for t in tokens[:i]) + " FILTER(false) " + \
                "".join(t.text for t in tokens[i:])
    return sparql


PREDICTORS: dict[str, PredictorFactory] = {
    "gold": GoldPredictor,
    "perturbed": PerturbedGoldPredictor,
    "garbage": GarbagePredictor,
}
"""Translator name -> factory. The CLI's ``--translator`` picks from here."""

DEFAULT_TRANSLATOR = "offline"


def register_predictor(name: str, factory: PredictorFactory, *, replace: bool = False) -> None:
    """Make a translator available to ``evaluate`` under ``name``."""
    if name in PREDICTORS and not replace:
        raise ConfigError(f"translator {name!r} is already registered")
    PREDICTORS[name] = factory


def _import_factory(spec: str) -> PredictorFactory:
    """``package.module:attribute`` -> that attribute (a factory taking an :class:`EvalContext`)."""
    import importlib

    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"cannot import translator module {module_name!r} ({exc})") from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ConfigError(f"{module_name} has no callable {attribute!r} to build a translator")
    return factory


def make_predictor(name: str, ctx: EvalContext) -> Predictor:
    """Build the translator registered as ``name`` (or given as ``module:factory``)."""
    factory = PREDICTORS.get(name)
    if factory is None and ":" in name:
        factory = _import_factory(name)
    if factory is None:
        available = ", ".join(sorted(PREDICTORS)) or "none"
        raise ConfigError(f"unknown translator {name!r} (available: {available}, "
                          "or module:factory)")
    try:
        predictor = factory(ctx)
    except Exception as exc:  # noqa: BLE001 - report a broken translator in one line
        if isinstance(exc, Nl2SparqlError):
            raise
        raise ConfigError(f"translator {name!r} could not start: {exc}") from None
    if not callable(getattr(predictor, "predict", None)):
        raise ConfigError(f"translator {name!r} has no predict(question, lang) method")
    return predictor


@dataclass
class Evaluation:
    """Scores of an evaluation run plus the predictions made (``{id, question, sparql}``)."""

    scores: list[ItemScore]
    predictions: list[dict]
    skipped: list[str] = field(default_factory=list)


def evaluate_items(kb: KnowledgeBase, items: Sequence[GoldItem], predictor: Predictor, *,
                   lang: str = "it", variant: Optional[str] = None,
                   options: Optional[MatchOptions] = None, timeout: Optional[float] = None,
                   max_rows: Optional[int] = None, progress: Optional[Progress] = None) -> Evaluation:
    """Ask ``predictor`` every question and score its SPARQL against the gold.

    Items without a question in ``lang`` (or the chosen variant) are skipped
    and listed in :attr:`Evaluation.skipped`; a translator that raises gets
    the error class ``translator`` for that item.
    """
    if lang not in LANGS:
        raise ConfigError(f"language must be one of {', '.join(LANGS)}, not {lang!r}")
    asked = [(item, item.text(lang, variant)) for item in items]
    skipped = [item.id for item, text in asked if not text]
    asked = [(item, text) for item, text in asked if text]
    if not asked:
        which = f"variant {variant!r} in {lang}" if variant else lang
        raise DataError(f"no questions in {which} among the {len(items)} item(s)")
    scorer = Scorer(kb, options, timeout=timeout, max_rows=max_rows)
    scores: list[ItemScore] = []
    predictions: list[dict] = []
    for n, (item, question) in enumerate(asked, 1):
        try:
            sparql = predictor.predict(question, lang)
        except Exception as exc:  # noqa: BLE001 - a failing translator is scored, not fatal
            message = str(exc).strip().splitlines()
            sparql = None
            result = scorer.score(item.sparql, None, item.id)  # the gold's answer, for the field measures
            if result.error == "missing":
                result.error = "translator"
                result.detail = f"translator failed: {message[0] if message else type(exc).__name__}"
        else:
            sparql = sparql if isinstance(sparql, str) and sparql.strip() else None
            result = scorer.score(item.sparql, sparql, item.id)
        result.patterns = item.pattern_labels
        result.difficulty = item.difficulty
        scores.append(result)
        predictions.append({"id": item.id, "question": question, "sparql": sparql})
        if progress is not None:
            progress(n, len(asked))
    return Evaluation(scores, predictions, skipped)
