"""``nl2sparql evaluate``: run a translator over a pool split or a question file and score it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..kb.base import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT
from ..score.evaluate import DEFAULT_TRANSLATOR
from ..translate import translator as _translator  # noqa: F401  (registers the offline and llm translators)
from .common import EndpointOpt, JsonOpt, StoreOpt, TimeoutOpt, err_console, friendly, open_kb_from_options, print_json
from .score_cmd import (DuplicatesOpt, IgnoreOrderOpt, LangTagsOpt, MaxRowsOpt, OutOpt, RoundOpt,
                        SameColumnsOpt, SameNamesOpt, ToleranceOpt, match_options, print_summary,
                        progress_bar)


@friendly
def evaluate(
    questions: Annotated[Path, typer.Argument(
        help="Pool JSONL (id, sparql, nl, nl_en, …) or question file (JSONL: id, question, sparql).",
        show_default=False)],
    translator: Annotated[str, typer.Option(
        "--translator", "-t", help="Translator to evaluate (gold, perturbed and garbage are test baselines).")]
        = DEFAULT_TRANSLATOR,
    lang: Annotated[str, typer.Option("--lang", help="Question language: it or en.")] = "it",
    split: Annotated[Optional[str], typer.Option("--split", help="Only this split of the pool.",
                                                 show_default=False)] = None,
    variant: Annotated[Optional[str], typer.Option(
        "--variant", help="Ask a style variant instead (generic, linguist, linked_data_expert, pedagogical).",
        show_default=False)] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Only the first N questions.",
                                                 show_default=False)] = None,
    out: OutOpt = Path("eval-report"),
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    timeout: TimeoutOpt = DEFAULT_TIMEOUT,
    max_rows: MaxRowsOpt = DEFAULT_MAX_ROWS,
    same_columns: SameColumnsOpt = True,
    same_names: SameNamesOpt = False,
    duplicates: DuplicatesOpt = True,
    tolerance: ToleranceOpt = 0.0,
    round_digits: RoundOpt = None,
    ignore_order: IgnoreOrderOpt = True,
    lang_tags: LangTagsOpt = "keep",
    json_out: JsonOpt = False,
) -> None:
    """Translate each question, run the SPARQL and score it against the gold by execution."""
    from ..score.data import load_gold
    from ..score.evaluate import EvalContext, evaluate_items, make_predictor
    from ..score.report import summarize, write_jsonl, write_reports

    options = match_options(same_columns, same_names, duplicates, tolerance, round_digits,
                            ignore_order, lang_tags)
    items = load_gold(questions, split)
    if limit is not None:
        items = items[:limit]
    with open_kb_from_options(store, endpoint, timeout) as kb:
        predictor = make_predictor(translator, EvalContext(items, kb, lang, variant))
        with progress_bar(f"evaluating {translator}") as update:
            run = evaluate_items(kb, items, predictor, lang=lang, variant=variant, options=options,
                                 timeout=timeout, max_rows=max_rows, progress=update)
        kb_name = getattr(kb, "description", "kb")
    if run.skipped:
        err_console.print(f"[yellow]warning:[/] {len(run.skipped)} item(s) have no question in {lang}"
                          f"{' (' + variant + ')' if variant else ''} and were skipped", highlight=False)
    meta = {"questions": str(questions), "split": split or "all", "translator": translator,
            "lang": lang, "variant": variant or "-", "kb": kb_name, "timeout": timeout,
            "max_rows": max_rows, "skipped": len(run.skipped)}
    paths = write_reports(out, run.scores, options.to_dict(), meta)
    paths["predictions"] = Path(out) / "predictions.jsonl"
    write_jsonl(paths["predictions"], run.predictions)
    summary = summarize(run.scores)
    if json_out:
        print_json({"summary": summary, "reports": {k: str(v) for k, v in paths.items()}})
    else:
        print_summary(summary, paths, f"{translator} on {questions.name} ({lang})")
