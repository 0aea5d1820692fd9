"""The reliability corpus (issue 17) per way in: cases, clear errors, tracebacks, hangs, rows lost.

Runs ``tests/reliability/test_corpus.py`` once with ``NL2SPARQL_CORPUS_RECORD``
set (every (case, surface) pair appends its outcome as a JSON line), then
counts per surface:

* **cases**: (case, surface) pairs run; **passed**: pairs the judge passed;
* **refusals**: pairs that must be refused; **clear errors**: those refused
  in one line of the project's own, no traceback;
* **tracebacks**: pairs whose answer was a traceback or a generic failure;
* **hangs**: pairs that took longer than their bound;
* **rows lost**: lines of the files written before a case (and KB triples for
  refused updates) missing after it.

Tracebacks, hangs and rows lost must all be 0. The wall time is pytest's, on
whatever load the machine has (printed with it).

    python bench/reliability.py            # the whole corpus
    python bench/reliability.py -k mcp     # a pytest -k selection
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SURFACES = ("cli", "api", "mcp", "ui", "agent")
COLUMNS = ("cases", "passed", "refusals", "clear errors", "tracebacks", "hangs", "rows lost")


def run_corpus(record: Path, select: str | None) -> tuple[int, float, str]:
    """Run the corpus with pytest, recording to ``record``; its exit status, wall seconds and last line."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/reliability/test_corpus.py"]
    if select:
        cmd += ["-k", select]
    start = time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, env={**os.environ, "NL2SPARQL_CORPUS_RECORD": str(record)},
                          capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return done.returncode, time.monotonic() - start, lines[-1] if lines else done.stderr[-500:]


def table(rows: list[dict]) -> dict[str, dict[str, int]]:
    """Counts per surface (and ``all``) from the recorded rows."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COLUMNS, 0))
    for row in rows:
        for key in (row["surface"], "all"):
            c = counts[key]
            c["cases"] += 1
            c["passed"] += row["passed"]
            if row["expected"] == "refused":
                c["refusals"] += 1
                c["clear errors"] += row["outcome"] == "refused" and row["clear"]
            c["tracebacks"] += row["traceback"] or row["outcome"] == "broken"
            c["hangs"] += row["hang"]
            c["rows lost"] += row["lost"]
    return counts


def markdown(counts: dict[str, dict[str, int]]) -> str:
    """The table as Markdown, one line per surface, then the total."""
    lines = ["| surface | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    for surface in [s for s in SURFACES if s in counts] + ["all"]:
        lines.append(f"| {surface} | " + " | ".join(str(counts[surface][c]) for c in COLUMNS) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="select", help="a pytest -k expression (default: every pair)")
    parser.add_argument("--failures", action="store_true", help="also list the pairs that did not pass")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "corpus.jsonl"
        status, wall, summary = run_corpus(record, args.select)
        rows = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()] \
            if record.exists() else []
    if not rows:
        print(f"the corpus recorded nothing: {summary}", file=sys.stderr)
        return 2
    counts = table(rows)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"corpus: {len({r['case'] for r in rows})} cases, {len(rows)} (case, surface) pairs; pytest: {summary}; "
          f"wall {wall:.0f} s; load average after the run {load} on {os.cpu_count()} CPUs")
    print(markdown(counts))
    if args.failures:
        for row in rows:
            if not row["passed"]:
                print(f"- {row['surface']}:{row['case']}: {'; '.join(row['problems'])[:300]}")
    bad = counts["all"]["tracebacks"] or counts["all"]["hangs"] or counts["all"]["rows lost"]
    return 1 if status or bad else 0


if __name__ == "__main__":
    sys.exit(main())
