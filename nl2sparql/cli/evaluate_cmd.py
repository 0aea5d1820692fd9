"""``nl2sparql evaluate``: run a translator over a pool split or a question file and score it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..api import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT, DEFAULT_TRANSLATOR
from .common import (EndpointOpt, JsonOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt, ServiceOpt, StoreOpt, TimeoutOpt,
                     err_console, friendly, kb_choice, llm_settings, print_json)
from .score_cmd import (DuplicatesOpt, IgnoreOrderOpt, LangOpt, LangTagsOpt, LimitOpt, MaxRowsOpt, OutOpt,
                        RoundOpt, SameColumnsOpt, SameNamesOpt, SplitOpt, ToleranceOpt, VariantOpt, match_options,
                        print_summary, progress_bar)


@friendly
def evaluate(
    questions: Annotated[Path, typer.Argument(
        help="Pool JSONL (id, sparql, nl, nl_en, …) or question file (JSONL: id, question, sparql).",
        show_default=False)],
    translator: Annotated[str, typer.Option(
        "--translator", "-t", help="Translator to evaluate (gold, perturbed and garbage are test baselines).")]
        = DEFAULT_TRANSLATOR,
    lang: LangOpt = "it",
    split: SplitOpt = None,
    variant: VariantOpt = None,
    limit: LimitOpt = None,
    out: OutOpt = Path("eval-report"),
    force: Annotated[bool, typer.Option("--force", help="Replace the report already in --out.")] = False,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
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
    llm_model: LLMModelOpt = None,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
) -> None:
    """Translate each question, run the SPARQL and score it against the gold by execution."""
    from .. import api

    options = match_options(same_columns, same_names, duplicates, tolerance, round_digits, ignore_order, lang_tags)
    settings = llm_settings(translator == "llm", llm_model, llm_base_url, llm_config, needs="--translator llm")
    with progress_bar(f"evaluating {translator}") as update:
        result = api.evaluate(questions, translator=translator, lang=lang, split=split, variant=variant, limit=limit,
                              kb=kb_choice(store, endpoint, timeout, max_rows, services=service), match=options,
                              out=out, force=force, llm=settings, progress=update)
    for warning in result.warnings:
        err_console.print(f"[yellow]warning:[/] {warning}", highlight=False)
    if json_out:
        print_json({"summary": result.summary, "reports": result.reports})
    else:
        print_summary(result.summary, result.reports, f"{translator} on {Path(questions).name} ({lang})")
