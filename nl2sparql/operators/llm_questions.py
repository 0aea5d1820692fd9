"""LLM question generator: N candidate questions per persona and language, the medoid kept.

For each row that needs questions, the model is asked ``candidates`` times
(distinct seeds) per persona (generic, linguist, linked-data expert,
pedagogical) and language (Italian, English). The kept question is the
*medoid* of the candidates: the one most similar to the others, with the
multilingual USE embedder (:func:`nl2sparql.translate.embedders.get_embedder`),
or, when no embedder is available, by mean token overlap (Jaccard). The
medoid is the candidate the samples agree on, so one odd sample never wins.

Modes: ``fill_missing`` (default) phrases only rows without template
questions (LLM-written queries: no fragments); ``paraphrase`` also replaces
template questions, keeping a paraphrase only when it still names every
slot value (``mentions``) of the row.
"""

from __future__ import annotations

import re

import numpy as np

from ..patterns.base import PERSONAS
from ..folding import fold
from .base import Operator, StepReport
from .llm_sparql import chat_each

LANGS = {"it": "Italian", "en": "English"}
PERSONA_STYLE = {
    "generic": "an everyday user asking plainly, without technical terms",
    "linguist": "a linguist, using lexicographic terms (lemma, part of speech, sense, inflected form)",
    "linked_data_expert": "a linked-data expert, naming the RDF classes and properties involved "
                          "(lila:Lemma, ontolex:writtenRep, ...)",
    "pedagogical": "a learner or teacher, with a short motivating context before the question",
}

SYSTEM_PROMPT = """You write the natural-language question that a SPARQL query over LiITA \
(Linking Italian, a knowledge base of Italian lexical resources) answers. The question must ask \
for exactly what the query returns: the same constraints, the same words and values, the same \
extra columns, a count when the query counts. Answer with the question only, on one line."""

USER_PROMPT = """Query:
```sparql
{sparql}
```
{context}Write the question in {language}, as asked by {persona}."""

PREFIX_RE = re.compile(r"^(?:[-*\d.)\s]+|(?:question|domanda|q)\s*[:：]\s*)+", re.IGNORECASE)


def clean_question(text: str | None) -> str | None:
    """The question in a model answer: first non-empty line, without fences, labels or quotes."""
    for line in (text or "").replace("```", "\n").splitlines():
        line = PREFIX_RE.sub("", line.strip()).strip().strip('"“”«»\'').strip()
        if len(line) >= 3:
            return line
    return None


def token_overlap_medoid(texts: list[str]) -> int:
    """Index of the text with the highest mean Jaccard token overlap with the others."""
    sets = [set(re.findall(r"\w+", fold(t))) for t in texts]
    def mean_overlap(i):
        others = [len(sets[i] & s) / max(1, len(sets[i] | s)) for j, s in enumerate(sets) if j != i]
        return sum(others) / max(1, len(others))
    return max(range(len(texts)), key=lambda i: (mean_overlap(i), -i))


def embedding_medoid(vectors: np.ndarray) -> int:
    """Index of the row with the highest summed cosine similarity to the others (unit rows)."""
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, 0.0)
    return int(np.argmax(sims.sum(axis=1)))


class LLMQuestionGenerator(Operator):
    """Writes ``nl``, ``nl_variants``, ``nl_en``, ``nl_en_variants`` (and ``llm_questions``) with an LLM.

    Config: ``candidates`` (samples per persona and language, default 3), ``mode``
    (``fill_missing`` | ``paraphrase``), ``temperature`` (default 0.8), ``seed``,
    ``tier`` (default ``fast``), ``embedder`` (None → USE; ``none`` → token
    overlap). Services: ``client``; ``embedder`` (an object with ``encode``) to
    override the lookup. Rejection reason: ``llm_no_question`` (a row that
    needed questions got no usable candidate for some persona/language).
    """

    input_keys = ("cid", "sparql")
    output_keys = ("nl", "nl_variants", "nl_en", "nl_en_variants")

    def __init__(self, config: dict | None = None, client=None, embedder=None, **kw):
        super().__init__(config, **kw)
        self.client = client
        self._embedder = embedder
        self.selection = None

    def embedder(self):
        """The embedder used for medoids, or None (token overlap); sets :attr:`selection`."""
        name = self.config.get("embedder")
        if self._embedder is None and (name is None or str(name).lower() not in ("none", "off")):
            from ..translate.embedders import get_embedder
            self._embedder, _ = get_embedder(self.config.get("embedder"))
        self.selection = (f"{self._embedder.name} medoid" if self._embedder is not None
                          else "token-overlap medoid")
        return self._embedder

    def needs(self, row: dict) -> bool:
        """True when the row gets LLM questions in this mode."""
        if self.config.get("mode", "fill_missing") == "paraphrase":
            return True
        return row.get("generator") == "llm" or not row.get("fragments") or not row.get("nl")

    def _prompt(self, row: dict, sparql: str, lang: str, persona: str, paraphrase: bool) -> list[dict]:
        context = ""
        if paraphrase and row.get("nl_variants"):
            current = row["nl_variants" if lang == "it" else "nl_en_variants"].get(persona)
            mentions = [m[0] if lang == "it" else m[1] for m in row.get("mentions") or []]
            context = f"Paraphrase this question: {current}\n"
            if mentions:
                context += f"Keep these words exactly: {', '.join(mentions)}\n"
        user = USER_PROMPT.format(sparql=sparql.strip(), context=context, language=LANGS[lang],
                                  persona=PERSONA_STYLE[persona])
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]

    def run(self, storage, input_key: str = "sparql", output_key: str = "nl") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        n = max(1, int(self.config.get("candidates", 3)))
        seed = int(self.config.get("seed", 0))
        todo = [r for r in rows if self.needs(r)]
        groups = [(r, lang, p) for r in todo for lang in LANGS for p in PERSONAS]
        conversations, seeds = [], []
        for row, lang, persona in groups:
            template = bool(row.get("fragments")) and row.get("generator") != "llm"
            msgs = self._prompt(row, row[input_key], lang, persona, template)
            conversations += [msgs] * n
            seeds += [seed * 100 + k for k in range(n)]
        answers = chat_each(self.client, conversations, self.config.get("tier", "fast"), seeds, self.progress,
                            temperature=float(self.config.get("temperature", 0.8)))
        texts = [clean_question(a.text) if not a.truncated else None for a in answers]
        chosen = self._medoids(groups, texts, n)
        failed, kept, rejects = set(), [], []
        written: dict[str, dict] = {}
        for (row, lang, persona), question in zip(groups, chosen):
            if question is not None:
                written.setdefault(row["cid"], {}).setdefault(lang, {})[persona] = question
            elif row.get("generator") == "llm" or not row.get("fragments"):
                failed.add(row["cid"])
        for row in todo:
            for lang, variants in written.get(row["cid"], {}).items():
                key = output_key if lang == "it" else f"{output_key}_en"
                merged = {**(row.get(f"{key}_variants") or {}), **variants}
                row[f"{key}_variants"] = merged
                row[key] = merged.get("generic", row.get(key))
            row["llm_questions"] = {"candidates": n, "selection": self.selection,
                                    "mode": self.config.get("mode", "fill_missing")}
        for row in rows:
            if row["cid"] in failed:
                report.rejected["llm_no_question"] += 1
                rejects.append({"cid": row["cid"], "reason": "llm_no_question", input_key: row[input_key]})
            else:
                kept.append(row)
        storage.write(kept)
        self.write_rejects(storage, rejects)
        report.kept = len(kept)
        report.extra.update({"phrased": len(todo), "selection": self.selection, "llm_requests": len(answers)})
        return report

    def _medoids(self, groups: list, texts: list[str | None], n: int) -> list[str | None]:
        """The medoid question of each group's ``n`` candidates (paraphrases must keep the mentions)."""
        embedder = self.embedder() if groups else None
        per_group = []
        for g, (row, lang, _) in enumerate(groups):
            options = [t for t in texts[g * n:(g + 1) * n] if t]
            mentions = [fold(m[0] if lang == "it" else m[1]) for m in row.get("mentions") or []]
            if mentions:
                options = [t for t in options if all(m in fold(t) for m in mentions)]
            per_group.append(options if len(set(options)) > 1 else options[:1])
        vectors = None
        flat = [t for options in per_group if len(options) > 1 for t in options]
        if embedder is not None and flat:
            vectors = iter(embedder.encode(flat))
        out = []
        for options in per_group:
            if len(options) <= 1:
                out.append(options[0] if options else None)
            elif vectors is not None:
                out.append(options[embedding_medoid(np.stack([next(vectors) for _ in options]))])
            else:
                out.append(options[token_overlap_medoid(options)])
        return out
