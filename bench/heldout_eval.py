"""Execution accuracy on the frozen held-out question sets (``bench/heldout``, issues 11 and 14).

Each question is translated offline (the shipped pools serve retrieval; no held-out question is in
them) and scored against its gold query on the embedded sample. The translator is
:class:`~nl2sparql.translate.translator.Translator` and the scorer
:class:`~nl2sparql.score.Scorer`. Accuracy is strict and relaxed, per language, per class and, for
the agent set, per difficulty. The script also lists the misses' error classes and which way
each translation was made (``source``). Per-item results go to ``bench/out/heldout_<set>.json``.

``--set people`` is the set of issues 24 and 25 (questions written as people write them, blind to
the code): it runs on the LiITA mirror store (``--store``, else the one ``bench/reference_eval.py``
finds or builds), English words map to the mirror's lemmas, its gold answers are kept between runs
in ``bench/out/``, and the report adds the writer's style (linguist or casual).

Usage::

    .venv/bin/python bench/heldout_eval.py --set people
    .venv/bin/python bench/heldout_eval.py --set people --translator agent
    .venv/bin/python bench/heldout_eval.py --set translator
    .venv/bin/python bench/heldout_eval.py --set agent
    .venv/bin/python bench/heldout_eval.py --set agent --translator my.module:factory   # any evaluate predictor

``--translator`` takes a name registered with :func:`nl2sparql.score.evaluate.register_predictor`
or ``module:factory``. ``offline`` (the default) calls the translator directly, so the report
can also show each translation's source and shape.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
HELDOUT = REPO / "bench" / "heldout"
OUT = REPO / "bench" / "out"

from accuracy_tools import MemoKB, accuracy_line, load_translator, miss_line, percentile_ms  # noqa: E402
from translate import find_store  # noqa: E402  (bench/translate.py: the mirror store, built if missing)
from nl2sparql.errors import Nl2SparqlError  # noqa: E402
from nl2sparql.fileio import atomic_write_text, iter_jsonl  # noqa: E402
from nl2sparql.kb import open_kb  # noqa: E402
from nl2sparql.score import GoldItem, MatchOptions, Scorer  # noqa: E402

#: Set name → file. ``breadth_dev`` is the development set of issue 14 (not held out: tune on it freely).
SETS = {"translator": HELDOUT / "translator_questions.jsonl", "agent": HELDOUT / "agent_questions.jsonl",
        "people": HELDOUT / "people_questions.jsonl", "breadth_dev": REPO / "bench" / "breadth_dev.jsonl"}
#: Sets whose golds are written for the LiITA mirror, not the embedded sample.
MIRROR_SETS = {"people"}


def load_set(name: str) -> list[dict]:
    """The records of one held-out set."""
    return [obj for _, obj in iter_jsonl(SETS[name])]


def gold_item(rec: dict) -> GoldItem:
    """The record as the scorer's gold item (its question in its own language)."""
    question = rec["question"]
    return GoldItem(id=rec["id"], sparql=rec["sparql"], question=question if rec["lang"] == "it" else "",
                    question_en=question if rec["lang"] == "en" else "", difficulty=rec.get("difficulty"))


class OfflineAsker:
    """The offline translator; keeps how each question was translated."""

    def __init__(self, kb=None):
        self.translator, self.load_s = load_translator(**({"kb": kb} if kb is not None else {}))

    def ask(self, question: str, lang: str) -> tuple[str, dict]:
        """``(sparql, how)``: how = source, shape and confidence of the translation."""
        result = self.translator.translate(question)
        return result.sparql, {"source": result.source, "shape": result.shape,
                               "confidence": round(result.confidence, 3)}


class PredictorAsker:
    """Any ``evaluate`` predictor, by name or ``module:factory``."""

    def __init__(self, name: str, records: list[dict], kb):
        from nl2sparql.score.evaluate import EvalContext, make_predictor
        start = time.perf_counter()
        self.predictor = make_predictor(name, EvalContext([gold_item(r) for r in records], kb=kb))
        self.load_s = time.perf_counter() - start

    def ask(self, question: str, lang: str) -> tuple[str, dict]:
        """``(sparql, {})``."""
        return self.predictor.predict(question, lang), {}


def run(args, make_asker=None) -> dict:
    """Translate and score every question of the chosen set; returns the JSON report.

    ``make_asker(records, kb)`` supplies another asker (anything with ``ask`` and ``load_s``).
    """
    records = load_set(args.set)
    persist = None
    if args.set in MIRROR_SETS:
        args.store = find_store(args.store)
        persist = OUT / f"{args.set}_answers-{hashlib.sha256(str(args.store.resolve()).encode()).hexdigest()[:12]}.pickle"
    kb = open_kb(store=args.store, timeout=args.timeout)
    if make_asker is not None:
        asker = make_asker(records, kb)
    elif args.translator == "offline":
        asker = OfflineAsker(kb if args.set in MIRROR_SETS else None)
    else:
        asker = PredictorAsker(args.translator, records, kb)
    memo = MemoKB(kb, persist=persist)
    scorer = Scorer(memo, timeout=args.timeout)
    # why a relaxed miss is one: the same comparison with the relaxed options as the verdict
    relaxed_scorer = Scorer(memo, MatchOptions().relaxed(), timeout=args.timeout)
    items, durations = [], []
    for rec in records:
        start = time.perf_counter()
        try:
            sparql, how = asker.ask(rec["question"], rec["lang"])
        except Nl2SparqlError as exc:
            sparql, how = "", {"source": "error", "error": str(exc).splitlines()[0]}
        durations.append(time.perf_counter() - start)
        score = scorer.score(rec["sparql"], sparql or None, rec["id"])
        score.patterns = [rec["class"]]
        score.difficulty = rec.get("difficulty")
        if not score.relaxed:
            how["relaxed_error"] = relaxed_scorer.score(rec["sparql"], sparql or None, rec["id"]).error
        items.append((rec, score, how))
    memo.save()
    return report(args, items, durations, asker.load_s, kb)


def report(args, items, durations, load_s, kb) -> dict:
    """Print the tables and build the JSON report."""
    scores = [s for _, s, _ in items]
    by = defaultdict(list)
    for rec, score, how in items:
        by[("lang", rec["lang"])].append(score)
        by[("class", rec["class"])].append(score)
        by[("class-lang", rec["class"], rec["lang"])].append(score)
        by[("source", how.get("source", "-"))].append(score)
        if rec.get("style"):
            by[("style", rec["style"])].append(score)
        if rec.get("difficulty"):
            by[("difficulty", rec["difficulty"])].append(score)
    print(f"# bench/heldout_eval.py --set {args.set} --translator {args.translator}: "
          f"{len(items)} questions, KB {getattr(kb, 'description', None) or args.store or 'sample'}; "
          f"Python {platform.python_version()}")
    print(accuracy_line("all", scores))
    for lang in ("it", "en"):
        print(accuracy_line(f"  {lang}", by[("lang", lang)]))
    print(f"strict misses: {miss_line(s.error for s in scores)}")
    print(f"relaxed misses: {miss_line(how.get('relaxed_error') for _, _, how in items)}")
    print("by class (it+en; then it / en strict):")
    for cls in sorted({rec["class"] for rec, _, _ in items}):
        it, en = by[("class-lang", cls, "it")], by[("class-lang", cls, "en")]
        print(accuracy_line(f"  {cls}", by[("class", cls)])
              + f"   it {sum(s.strict for s in it)}/{len(it)}  en {sum(s.strict for s in en)}/{len(en)}"
              + "   relaxed misses: "
              + miss_line(how.get("relaxed_error") for rec, _, how in items if rec["class"] == cls))
    if any(k[0] == "style" for k in by):
        print("by style:")
        for style in ("linguist", "casual"):
            print(accuracy_line(f"  {style}", by[("style", style)]))
    if any(k[0] == "difficulty" for k in by):
        print("by difficulty:")
        for level in ("easy", "medium", "hard"):
            print(accuracy_line(f"  {level}", by[("difficulty", level)]))
    print("by translation source:")
    for key in sorted(k for k in by if k[0] == "source"):
        print(accuracy_line(f"  {key[1]}", by[key]))
    print(f"translator start {load_s:.1f} s; translation p50 {percentile_ms(durations, 0.5):.1f} ms, "
          f"p95 {percentile_ms(durations, 0.95):.1f} ms (shared machine)")
    if args.show_misses:
        for rec, score, _ in items:
            if not score.strict:
                print(f"  MISS {rec['id']} [{rec['class']}] {rec['question']}: {score.error}: {score.detail}")
    return {"set": args.set, "translator": args.translator, "n": len(items),
            "strict": sum(s.strict for s in scores) / len(scores),
            "relaxed": sum(s.relaxed for s in scores) / len(scores),
            "items": [{"id": rec["id"], "lang": rec["lang"], "class": rec["class"], **how,
                       "strict": score.strict, "relaxed": score.relaxed, "error": score.error,
                       "detail": score.detail, "pred_sparql": score.pred_sparql}
                      for rec, score, how in items]}


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=sorted(SETS), default="translator")
    parser.add_argument("--translator", default="offline",
                        help="offline (default), another registered predictor, or module:factory")
    parser.add_argument("--store", type=Path, help="an on-disk store instead of the embedded sample "
                        "(the expected_rows of the sets hold for the sample only; --set people: the mirror store)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per query")
    parser.add_argument("--json", type=Path, help="per-item report (default bench/out/heldout_<set>.json)")
    parser.add_argument("--show-misses", action="store_true", help="print every miss with its detail")
    args = parser.parse_args()
    try:
        out = run(args)
    except Nl2SparqlError as exc:
        sys.exit(f"heldout_eval: {exc}")
    path = args.json or OUT / f"heldout_{args.set}.json"
    atomic_write_text(path, json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    print(f"per-item results: {path}")


if __name__ == "__main__":
    main()
