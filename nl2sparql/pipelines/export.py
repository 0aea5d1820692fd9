"""Export a pool as fine-tuning data: Alpaca, ShareGPT or OpenAI chat JSONL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from ..errors import ConfigError, DataError
from ..fileio import atomic_write
from .storage import check_output_path, same_file

FORMATS = ("alpaca", "sharegpt", "openai")
INSTRUCTION = ("Translate the question into a SPARQL query for LiITA (Linking Italian). "
               "Use the LiITA prefixes; reach CompL-it through SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>.")


def questions(item: dict, lang: str, variants: bool) -> list[str]:
    """The questions of an item for ``lang`` (``it``, ``en`` or ``both``)."""
    out = []
    for code in (("it", "en") if lang == "both" else (lang,)):
        main = item.get("nl") if code == "it" else item.get("nl_en")
        if main:
            out.append(main)
        if variants:
            field = "nl_variants" if code == "it" else "nl_en_variants"
            out += [q for q in (item.get(field) or {}).values() if q and q not in out]
    return out


def convert(item: dict, question: str, fmt: str) -> dict:
    """One training record."""
    if fmt == "alpaca":
        return {"instruction": INSTRUCTION, "input": question, "output": item["sparql"]}
    if fmt == "sharegpt":
        return {"conversations": [{"from": "system", "value": INSTRUCTION}, {"from": "human", "value": question},
                                  {"from": "gpt", "value": item["sparql"]}]}
    return {"messages": [{"role": "system", "content": INSTRUCTION}, {"role": "user", "content": question},
                         {"role": "assistant", "content": item["sparql"]}]}


def export_pool(items: Iterable[dict], out: Path, fmt: str, lang: str = "both", variants: bool = False,
                split: str | None = None, source: Path | None = None) -> int:
    """Write the records as they come (``items`` may be a stream); returns how many.

    ``out`` may not be the ``source`` pool (it would be overwritten); it is
    written atomically, so a failure halfway leaves no partial export.
    """
    if source is not None and same_file(Path(out), Path(source)):
        raise DataError(f"--out {out} is the pool being exported; write the export to another file")
    check_output_path(Path(out))
    if fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if lang not in ("it", "en", "both"):
        raise ConfigError(f"unknown language {lang!r}: use it, en or both")
    written = 0

    def write(tmp: str) -> None:
        nonlocal written
        with open(tmp, "w", encoding="utf-8") as fh:
            for item in items:
                if split is not None and item.get("split") != split:
                    continue
                for q in questions(item, lang, variants):
                    fh.write(json.dumps(convert(item, q, fmt), ensure_ascii=False) + "\n")
                    written += 1

    atomic_write(Path(out), write)
    return written
