"""Turn the API's results into page content: messages, tables and small HTML blocks.

Every text that comes from a user, a query or the KB is escaped here; the
tabs only arrange what these functions return.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Iterable, Sequence

import pandas as pd

from .. import api

#: Rows shown in a page table (the CSV/JSON downloads hold the whole answer).
MAX_SHOWN = 500

_TITLES = {"error": "Error", "warn": "Note", "ok": "Done", "info": ""}


def esc(value: Any) -> str:
    """HTML-escaped text of any value."""
    return html.escape(str(value), quote=True)


def message(kind: str, text: str, details: Iterable[str] = ()) -> str:
    """A status box: ``kind`` is ``error``, ``warn``, ``ok`` or ``info``; ``details`` become a list under it."""
    title = _TITLES.get(kind, "")
    head = f"<strong>{title}:</strong> " if title else ""
    items = "".join(f"<li>{esc(d)}</li>" for d in details)
    extra = f"<ul>{items}</ul>" if items else ""
    role = ' role="alert"' if kind == "error" else ""
    return f'<div class="nl2s-msg nl2s-{kind}"{role}>{head}{esc(text)}{extra}</div>'


def highlight_html(query: str | None, empty: str = "") -> str:
    """The query as a highlighted, read-only block (keywords, variables, IRIs, names, literals, comments)."""
    if not query:
        return f'<p class="nl2s-muted">{esc(empty)}</p>' if empty else ""
    spans = "".join(esc(text) if kind in ("ws", "op", "other") else f'<span class="sq-{kind}">{esc(text)}</span>'
                    for kind, text in api.sparql_tokens(query))
    return f'<pre class="nl2s-sparql">{spans}</pre>'


def frame(rows: Sequence[Sequence[Any]], columns: Sequence[str]) -> pd.DataFrame:
    """A table for a ``gr.Dataframe`` (every cell as text, empty for missing values)."""
    return pd.DataFrame([["" if c is None else str(c) for c in row] for row in rows], columns=list(columns))


#: An empty result table (Gradio numbers the columns of a table without any).
NO_RESULTS = frame([], ["no results yet"])


def rows_frame(rows) -> pd.DataFrame:
    """The first :data:`MAX_SHOWN` rows of an :class:`~nl2sparql.api.Rows` answer as a table."""
    if rows.form == "ask":
        return frame([["yes" if rows.boolean else "no"]], ["answer"])
    return frame(rows.values()[:MAX_SHOWN], [f"?{v}" for v in rows.variables])


def rows_caption(rows) -> str:
    """One line saying how many rows came back, how fast, and whether the page or the row cap cut them."""
    if rows.form == "ask":
        return message("info", f"ASK answer: {'yes' if rows.boolean else 'no'} ({rows.elapsed_ms:.0f} ms)")
    text = f"{rows.count} row{'s' if rows.count != 1 else ''} in {rows.elapsed_ms:.0f} ms"
    notes = []
    if rows.count > MAX_SHOWN:
        notes.append(f"the table shows the first {MAX_SHOWN}; the downloads hold all {rows.count}")
    if rows.truncated:
        notes.append(f"the answer was cut at the row cap ({rows.row_cap} rows)")
    if rows.count == 0:
        return message("warn", "the query returns no rows on this knowledge base")
    return message("info", text + (": " + "; ".join(notes) if notes else ""))


def rows_files(rows, folder: Path) -> tuple[str, str]:
    """Write the answer as ``results.csv`` and ``results.json`` (SPARQL 1.1 JSON) in ``folder``; their paths."""
    csv_path, json_path = folder / "results.csv", folder / "results.json"
    csv_path.write_text(rows.to_csv(), encoding="utf-8")
    json_path.write_text(json.dumps(rows.to_sparql_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return str(csv_path), str(json_path)


def patterns_frame(patterns: dict[str, float]) -> pd.DataFrame:
    """Detected patterns with their confidence, strongest first."""
    ranked = sorted(patterns.items(), key=lambda kv: -kv[1])
    return frame([[label, f"{weight:.2f}"] for label, weight in ranked], ["pattern", "confidence"])


def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def slots_html(slots: dict[str, Any]) -> str:
    """What the reader understood (word, emotion, part of speech, ...) as a two-column table."""
    shown = {k: v for k, v in slots.items() if k not in ("plan", "lang")}
    if not shown:
        return '<p class="nl2s-muted">No slots: the question names no word, emotion or filter the reader knows.</p>'
    body = "".join(f"<tr><th>{esc(k)}</th><td>{esc(_value(v))}</td></tr>" for k, v in shown.items())
    return f'<table class="nl2s-kv">{body}</table>'


def plan_html(slots: dict[str, Any]) -> str:
    """The steps the offline translator composed (``slots["plan"]``), one per line."""
    plan = slots.get("plan") or []
    if not plan:
        return ""
    steps = "".join(
        f"<li><code>{esc(step.get('pattern', '?'))}</code> "
        f"{esc(', '.join(f'{k}={_value(v)}' for k, v in step.items() if k != 'pattern'))}</li>"
        for step in plan if isinstance(step, dict))
    return f'<div class="nl2s-plan"><strong>How the query was built</strong><ol>{steps}</ol></div>'


def issues_html(issues: Sequence, fixes: Sequence[str] = (), ok_text: str = "No LiITA rule is broken.") -> str:
    """Validation issues (with their suggested fix) and the fixes already applied."""
    parts = []
    for fix in fixes:
        parts.append(f'<li class="nl2s-fixed"><span class="nl2s-badge nl2s-badge-ok">fixed</span> {esc(fix)}</li>')
    for issue in issues:
        hint = f'<div class="nl2s-hint">fix: {esc(issue.fix)}</div>' if issue.fix else ""
        parts.append(f'<li><span class="nl2s-badge nl2s-badge-{esc(issue.severity)}">{esc(issue.severity)}</span> '
                     f'<code>{esc(issue.rule)}</code> {esc(issue.message)}{hint}</li>')
    if not parts:
        return f'<p class="nl2s-ok-text">✓ {esc(ok_text)}</p>'
    return f'<ul class="nl2s-issues">{"".join(parts)}</ul>'


def bullet_list(lines: Sequence[str], empty: str) -> str:
    """Plain lines as an HTML list (``empty`` when there are none)."""
    if not lines:
        return f'<p class="nl2s-muted">{esc(empty)}</p>'
    return "<ul>" + "".join(f"<li>{esc(line)}</li>" for line in lines) + "</ul>"


def short(value: Any, limit: int = 600) -> str:
    """A value as compact text, cut at ``limit`` characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + " …"
