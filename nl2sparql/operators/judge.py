"""Correspondence judge: does the question ask for exactly what the query returns?

The fast LLM tier reads each row's Italian and English questions and its
query, and answers with a strict JSON verdict::

    {"verdict": "match" | "mismatch", "reasons": ["..."], "confidence": 0.0-1.0}

A malformed verdict (no JSON object, truncated or invalid JSON, a missing or
mistyped field, a verdict word other than the two) is asked again with another
seed (so the response cache does not hand back the same garbage), up to
``retries`` more times; then the row is rejected as ``judge_malformed``. A
verdict is never guessed from malformed text. ``mismatch`` rejects the row as
``judge_mismatch``; kept rows carry ``judge`` (the verdict, its reasons and
confidence, the model and the attempts), which the pool records in provenance.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from ..llm.errors import LLMFormatError
from ..llm.parsing import parse_json_verdict
from .base import Operator, StepReport

SYSTEM_PROMPT = """You check natural-language → SPARQL training pairs for LiITA (Linking Italian). \
Decide whether the question asks for exactly what the query returns: same constraints, same named \
words and values, same extra columns, a count exactly when the query counts, nothing missing and \
nothing added. Answer with one JSON object and nothing else:
{"verdict": "match" or "mismatch", "reasons": ["short reason", ...], "confidence": number from 0 to 1}"""

USER_PROMPT = """Italian question: {nl}
English question: {nl_en}
The query returns {count} row(s).
```sparql
{sparql}
```"""

VERDICTS = ("match", "mismatch")


def check_verdict(text: str | None, truncated: bool = False) -> dict:
    """The verdict in a judge's answer, validated; raises :class:`LLMFormatError` otherwise."""
    if truncated:
        raise LLMFormatError("the judge's answer was cut off by the token limit")
    value = parse_json_verdict(text, required=("verdict", "reasons", "confidence"))
    verdict, reasons, confidence = value["verdict"], value["reasons"], value["confidence"]
    if verdict not in VERDICTS:
        raise LLMFormatError(f"verdict must be one of {', '.join(VERDICTS)}, got {json.dumps(verdict)}")
    if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise LLMFormatError("reasons must be a list of strings")
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1:
        raise LLMFormatError(f"confidence must be a number in [0, 1], got {json.dumps(confidence)}")
    return {"verdict": verdict, "reasons": reasons, "confidence": float(confidence)}


class CorrespondenceJudge(Operator):
    """Keeps rows judged ``match``; writes ``judge``.

    Config: ``retries`` (extra attempts after a malformed verdict, default 2),
    ``temperature`` (default 0), ``seed``, ``tier`` (default ``fast``),
    ``min_confidence`` (a match below it is rejected as ``judge_low_confidence``,
    default 0), ``limit`` (stop once this many rows are kept; the rest are
    dropped as ``over_target``, saving requests), ``json_mode`` (send
    ``response_format: json_object``, default false). Service: ``client``.
    """

    input_keys = ("cid", "sparql", "nl", "nl_en")
    output_keys = ("judge",)

    def __init__(self, config: dict | None = None, client=None, **kw):
        super().__init__(config, **kw)
        self.client = client

    def judge(self, row: dict, input_key: str = "sparql", question_key: str = "nl") -> dict:
        """The verdict for one row, or ``{"verdict": "malformed", ...}`` after the retries."""
        c = self.config
        user = USER_PROMPT.format(nl=row[question_key], nl_en=row.get(f"{question_key}_en", ""),
                                  count=row.get("result_count", "?"), sparql=row[input_key].strip())
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]
        extra = {"response_format": {"type": "json_object"}} if c.get("json_mode") else {}
        errors = []
        for attempt in range(1 + max(0, int(c.get("retries", 2)))):
            answer = self.client.chat(messages, c.get("tier", "fast"), seed=int(c.get("seed", 0)) * 100 + attempt,
                                      temperature=float(c.get("temperature", 0.0)), **extra)
            try:
                verdict = check_verdict(answer.text, answer.truncated)
            except LLMFormatError as exc:
                errors.append(str(exc))
                continue
            return {**verdict, "model": answer.model, "attempts": attempt + 1}
        return {"verdict": "malformed", "reasons": errors, "confidence": None, "attempts": len(errors)}

    def run(self, storage, input_key: str = "sparql", question_key: str = "nl",
            output_key: str = "judge") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        limit = self.config.get("limit")
        floor = float(self.config.get("min_confidence", 0.0))
        workers = max(1, int(self.client.config.max_concurrency))
        kept, rejects, judged = [], [], 0
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="nl2sparql-judge") as pool:
            for start in range(0, len(rows), workers):
                if limit is not None and len(kept) >= int(limit):
                    break
                chunk = rows[start:start + workers]
                for row, verdict in zip(chunk, pool.map(lambda r: self.judge(r, input_key, question_key), chunk)):
                    judged += 1
                    reason = {"malformed": "judge_malformed", "mismatch": "judge_mismatch"}.get(verdict["verdict"])
                    if reason is None and verdict["confidence"] < floor:
                        reason = "judge_low_confidence"
                    if reason is None and limit is not None and len(kept) >= int(limit):
                        reason = "over_target"
                    if reason:
                        report.rejected[reason] += 1
                        rejects.append({"cid": row["cid"], "reason": reason, output_key: verdict,
                                        input_key: row[input_key], question_key: row[question_key]})
                    else:
                        kept.append({**row, output_key: verdict})
                self.progress(judged, len(rows))
        if judged < len(rows):
            report.rejected["over_target"] += len(rows) - judged
            self.progress(judged, judged)
        storage.write(kept)
        self.write_rejects(storage, rejects)
        report.kept = len(kept)
        report.extra["judged"] = judged
        return report
