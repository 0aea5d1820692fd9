"""LLM SPARQL generator: new candidate queries written by a model, checked like the composer's.

The prompt holds a summary of the KB's schema (graphs, classes and
properties with counts, from :func:`nl2sparql.kb.profile.profile_kb`, or a
static summary when profiling fails), the prose of every LiITA rule (the
registry the validator checks, :data:`nl2sparql.patterns.RULES`), the target
pattern labels with their guidance and canonical blocks (from the pattern
modules, :mod:`nl2sparql.patterns.guide`) and few-shot examples from a pool whose patterns
overlap the target. The model is asked for N queries, each in a ```sparql
block; :func:`~nl2sparql.llm.parsing.extract_sparql` takes them out (a cut-off
block yields nothing). Output rows have the composer's shape (``cid, sparql,
shape, labels, slots, mentions, fragments``) plus ``generator: "llm"``, and
are merged with the composer's candidates (interleaved at the configured
``share``), so the same execution filter checks them all. LLM rows have no
fragments: their questions come from the LLM question generator.
"""

from __future__ import annotations

import hashlib
import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Sequence

from ..namespaces import COMPLIT_SERVICE
from ..paths import pools_dir
from ..patterns import CATALOGUE, LABELS
from ..patterns.compose import excluded
from ..patterns.guide import pattern_guide, rules_text
from .base import Operator, StepReport
from .dedup import normalise_query


SYSTEM_PROMPT = """You write SPARQL 1.1 SELECT queries for LiITA (Linking Italian), a linked-data \
knowledge base of Italian lexical resources around one Lemma Bank. CompL-it (senses, definitions, \
semantic relations) is reached with SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>. \
Write triple patterns outside any GRAPH clause (the endpoint answers over the union of its graphs); \
Italian lemmas are <http://liita.it/data/id/lemma/...> with ontolex:writtenRep and lila:hasPOS.

Rules that queries get wrong:
{rules}"""

USER_PROMPT = """The knowledge base:
{schema}

Words that occur in it: {words}

Target query patterns (combine them in each query):
{targets}

Examples of questions with their queries:
{examples}

Write {n} different SPARQL queries that combine the target patterns and return a non-empty, \
useful answer on this knowledge base. Declare every prefix you use. Put each query in its own \
```sparql fenced block, with no explanation."""

FENCE_RE = re.compile(r"```[^\n]*\n.*?(?:```|\Z)", re.DOTALL)
COUNT_RE = re.compile(r"SELECT\s+(?:DISTINCT\s+)?\(\s*COUNT\s*\(", re.IGNORECASE)
WORD_RE = re.compile(r"STR\s*\(\s*\?\w+\s*\)\s*=\s*\"([^\"]+)\"", re.IGNORECASE)


def pattern_rules(labels: Sequence[str]) -> str:
    """The guidance and canonical block of each target label (from the pattern modules)."""
    return "\n".join(pattern_guide(labels))


def schema_summary(kb=None, timeout: float = 60.0, top: int = 12) -> str:
    """Graphs, classes and properties with counts (compact IRIs); a static summary if profiling fails."""
    from ..kb.profile import kb_profile
    from ..namespaces import compact
    try:
        profile = kb_profile(kb, timeout=timeout) if kb is not None else None
    except Exception:  # noqa: BLE001 - a slow or partial endpoint: fall back to the static summary
        profile = None
    if profile is None:
        return ("Graphs: <http://liita.it/data> (lemma bank), <http://w3id.org/elita> (ELITA emotions); "
                "Sentix polarity, dialect lemma banks and glossaries, inflected forms outside any GRAPH; "
                "CompL-it behind SERVICE.")

    def ranked(counts: dict) -> str:
        items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
        return ", ".join(f"{compact(k)} ({v})" for k, v in items)

    note = {COMPLIT_SERVICE: "; CompL-it: reach it with SERVICE, not GRAPH"}
    graphs = ", ".join(f"<{g.graph}> ({g.triples} triples{note.get(g.graph, '')})" for g in profile.graphs if g.graph)
    return f"Graphs: {graphs}\nClasses: {ranked(profile.classes())}\nProperties: {ranked(profile.properties())}"


def load_examples(path: str | Path | None) -> list[dict]:
    """Few-shot candidates: pool items with an Italian question, a query and strong pattern labels."""
    from ..fileio import read_pool
    path = Path(path) if path else pools_dir() / "sample_pool.jsonl"
    if not path.is_file():
        return []
    out = []
    for item in read_pool(path)[0]:
        strong = {k for k, v in (item.get("patterns") or {}).items() if v >= 0.5}
        if item.get("nl") and item.get("sparql") and strong:
            out.append({"nl": item["nl"], "sparql": item["sparql"], "strong": strong, "id": item.get("id", "")})
    return out


def pick_examples(examples: list[dict], targets: Sequence[str], k: int, rng: random.Random) -> list[dict]:
    """``k`` examples with the largest pattern overlap with ``targets`` (ties broken by ``rng``)."""
    wanted = set(targets)
    scored = [(len(e["strong"] & wanted), rng.random(), e) for e in examples]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [e for overlap, _, e in scored[:k] if overlap > 0] or [e for _, _, e in scored[:k]]


def pick_targets(labels: Sequence[str], rng: random.Random, most: int = 3) -> list[str]:
    """1 to ``most`` distinct labels, never two of an exclusive pair (e.g. TRANSLATION + MULTI_TRANSLATION)."""
    chosen: list[str] = []
    pool = [label for label in labels if label not in CATALOGUE or CATALOGUE[label].has_block()] or list(labels)
    size = rng.randint(1, most)
    for label in rng.sample(pool, len(pool)):
        if len(chosen) >= size:
            break
        if excluded(label, chosen):
            continue
        chosen.append(label)
    return sorted(chosen) or [pool[0]]


def split_queries(text: str, truncated: bool = False) -> list[str]:
    """Every query in an answer (one per fenced block, else the inline one); cut-off blocks are dropped."""
    from ..llm.parsing import extract_sparql
    blocks = FENCE_RE.findall(text or "")
    if truncated and blocks:
        blocks = blocks[:-1]  # the last block was cut by the token limit
    queries = [extract_sparql(block) for block in blocks] if blocks else [extract_sparql(text)]
    return [q for q in queries if q]


def guess_shape(sparql: str) -> tuple[str, str | None]:
    """``count`` / ``word`` / ``list`` from the query text, and the named word of a ``word`` query."""
    if COUNT_RE.search(sparql):
        return "count", None
    match = WORD_RE.search(sparql)
    return ("word", match.group(1)) if match else ("list", None)


def chat_each(client, conversations: list, tier: str, seeds: Sequence[int | None], progress=None,
              **kwargs: Any) -> list:
    """Ask each conversation with its own seed, ``client.config.max_concurrency`` at a time, in order.

    :meth:`LLMClient.chat_many` sends one seed for all; distinct seeds keep the
    cache from answering different samples of the same prompt with one answer.
    Raises the first :class:`~nl2sparql.llm.errors.LLMError`.
    """
    done = [0]
    lock = threading.Lock()

    def one(pair):
        messages, seed = pair
        answer = client.chat(messages, tier, seed=seed, **kwargs)
        with lock:
            done[0] += 1
            if progress:
                progress(done[0], len(conversations))
        return answer

    if progress:
        progress(0, len(conversations))  # the step shows from its first request on, not from its first answer
    workers = max(1, min(int(client.config.max_concurrency), len(conversations) or 1))
    pairs = list(zip(conversations, seeds))
    if workers == 1:
        return [one(p) for p in pairs]
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="nl2sparql-op")
    try:
        return list(pool.map(one, pairs))
    finally:
        pool.shutdown(cancel_futures=True)  # after a failure, the conversations not yet sent are not asked


def interleave(template: list[dict], llm: list[dict], share: float) -> list[dict]:
    """Merge so that about ``share`` of the leading rows are LLM rows (order inside each list kept)."""
    share = min(max(share, 0.01), 0.99)
    keyed = [(i / (1 - share), 1, r) for i, r in enumerate(template)]
    keyed += [(j / share, 0, r) for j, r in enumerate(llm)]
    return [r for *_, r in sorted(keyed, key=lambda t: (t[0], t[1]))]


class LLMSparqlGenerator(Operator):
    """Adds LLM-written candidates to the composer's (both kept; ``generator`` says which is which).

    Config: ``requests`` (prompts sent, default 4), ``per_request`` (queries asked
    per prompt, default 3), ``patterns`` (allowed target labels, default all),
    ``pool`` (few-shot pool file, default ``nl2sparql/data/pools/sample_pool.jsonl``),
    ``shots`` (examples per prompt, default 3), ``share`` (fraction of the
    leading merged rows that are LLM rows, default 0.3), ``temperature``
    (default 0.7), ``seed``, ``tier`` (default ``default``). Services: ``client``
    (an :class:`~nl2sparql.llm.LLMClient`), ``kb`` (for the schema summary).
    Rejection reasons: ``llm_no_query`` (an answer with no usable query),
    ``duplicate_query`` (already composed or written).
    """

    input_keys = ("cid", "sparql")
    output_keys = ("cid", "sparql", "shape", "labels", "slots", "mentions", "fragments", "generator")

    def __init__(self, config: dict | None = None, client=None, kb=None, **kw):
        super().__init__(config, **kw)
        self.client = client
        self.kb = kb

    def prompts(self, words: Sequence[str]) -> list[tuple[list[str], list[dict]]]:
        """Per request: its target labels and its chat messages (deterministic for the seed)."""
        c = self.config
        labels = [label for label in (c.get("patterns") or LABELS) if label in CATALOGUE]
        examples = load_examples(c.get("pool"))
        system = SYSTEM_PROMPT.format(rules="\n".join(rules_text()))
        schema = schema_summary(self.kb, timeout=float(c.get("timeout", 60.0)))
        out = []
        for i in range(int(c.get("requests", 4))):
            rng = random.Random(f"{c.get('seed', 0)}:llm-sparql:{i}")
            targets = pick_targets(labels, rng)
            shots = pick_examples(examples, targets, int(c.get("shots", 3)), rng)
            shown = "\n\n".join(f"Question: {e['nl']}\n```sparql\n{e['sparql'].strip()}\n```" for e in shots)
            user = USER_PROMPT.format(schema=schema, words=", ".join(words) or "(none sampled)",
                                      targets=pattern_rules(targets), examples=shown or "(none)",
                                      n=int(c.get("per_request", 3)))
            out.append((targets, [{"role": "system", "content": system}, {"role": "user", "content": user}]))
        return out

    def run(self, storage, input_key: str = "sparql", output_key: str = "sparql") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        words = sorted({r["slots"]["word"] for r in rows if (r.get("slots") or {}).get("word")})[:15]
        requests = self.prompts(words)
        seed = int(self.config.get("seed", 0))
        answers = chat_each(self.client, [m for _, m in requests], self.config.get("tier", "default"),
                            [seed * 1000 + i for i in range(len(requests))], self.progress,
                            temperature=float(self.config.get("temperature", 0.7)))
        seen = {normalise_query(r[input_key]) for r in rows}
        template = [{**r, "generator": r.get("generator", "template")} for r in rows]
        written, rejects = [], []
        for i, ((targets, _), answer) in enumerate(zip(requests, answers)):
            queries = split_queries(answer.text, answer.truncated)
            if not queries:
                report.rejected["llm_no_query"] += 1
                rejects.append({"cid": f"llm-request-{i}", "reason": "llm_no_query", "answer": answer.text[:500]})
            for query in queries:
                cid = "llm-" + hashlib.sha1(query.encode()).hexdigest()[:10]
                key = normalise_query(query)
                if key in seen:
                    report.rejected["duplicate_query"] += 1
                    rejects.append({"cid": cid, "reason": "duplicate_query", output_key: query})
                    continue
                seen.add(key)
                shape, word = guess_shape(query)
                written.append({"cid": cid, output_key: query, "shape": shape, "labels": {}, "slots": {},
                                "mentions": [], "fragments": [], "word": word, "limit": None, "anchor": None,
                                "generator": "llm", "llm_targets": targets, "llm_model": answer.model})
        out = interleave(template, written, float(self.config.get("share", 0.3)))
        storage.write(out)
        self.write_rejects(storage, rejects)
        report.kept = len(out)
        report.extra["llm_queries"] = len(written)
        report.extra["llm_requests"] = len(requests)
        return report
