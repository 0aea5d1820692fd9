"""BM25 (Okapi) over an inverted index, scoring only the documents that hold a query term.

``rank_bm25.BM25Okapi.get_scores`` walks every document in Python for every
query term (tens of milliseconds for 60,000 short texts). Here the corpus is a
:class:`TokenTable` (term counts per document, CSR layout, cacheable as plain
arrays) and :class:`BM25Index` keeps, per term, the ids of the documents that
contain it and their precomputed BM25 contribution, so a query costs one
vectorised add per query term. Scores equal ``BM25Okapi``'s (same ``k1``,
``b``, idf and epsilon floor for negative idf).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass
class TokenTable:
    """Term counts per document: document ``d`` holds ``term_ids[doc_ptr[d]:doc_ptr[d+1]]``.

    ``vocab[i]`` is the term with id ``i``; ``counts`` parallels ``term_ids``.
    """

    vocab: list[str]
    doc_ptr: np.ndarray
    term_ids: np.ndarray
    counts: np.ndarray

    @property
    def n_docs(self) -> int:
        """Number of documents."""
        return len(self.doc_ptr) - 1

    @classmethod
    def from_docs(cls, docs: Sequence[Sequence[str]]) -> "TokenTable":
        """Build the table from tokenised documents."""
        ids: dict[str, int] = {}
        doc_ptr = np.zeros(len(docs) + 1, dtype=np.int64)
        term_ids: list[int] = []
        counts: list[int] = []
        for d, doc in enumerate(docs):
            tf: dict[int, int] = {}
            for term in doc:
                tid = ids.setdefault(term, len(ids))
                tf[tid] = tf.get(tid, 0) + 1
            term_ids.extend(tf)
            counts.extend(tf.values())
            doc_ptr[d + 1] = len(term_ids)
        return cls(list(ids), doc_ptr, np.asarray(term_ids, dtype=np.int32),
                   np.asarray(counts, dtype=np.int32))

    @classmethod
    def concat(cls, tables: Sequence["TokenTable"]) -> "TokenTable":
        """One table over the documents of ``tables`` in order, with a merged vocabulary."""
        if len(tables) == 1:
            return tables[0]
        ids: dict[str, int] = {}
        ptrs, terms, counts, offset = [np.zeros(1, dtype=np.int64)], [], [], 0
        for table in tables:
            remap = np.fromiter((ids.setdefault(t, len(ids)) for t in table.vocab),
                                dtype=np.int32, count=len(table.vocab))
            terms.append(remap[table.term_ids] if len(table.term_ids) else table.term_ids)
            counts.append(table.counts)
            ptrs.append(table.doc_ptr[1:] + offset)
            offset += int(table.doc_ptr[-1])
        return cls(list(ids), np.concatenate(ptrs), np.concatenate(terms).astype(np.int32),
                   np.concatenate(counts).astype(np.int32))


class BM25Index:
    """Okapi BM25 over a :class:`TokenTable`; ``scores`` matches ``rank_bm25.BM25Okapi.get_scores``."""

    def __init__(self, table: TokenTable, k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25):
        self.vocab = {term: i for i, term in enumerate(table.vocab)}
        self.n_docs = table.n_docs
        n_terms = len(table.vocab)
        doc_of = np.repeat(np.arange(self.n_docs, dtype=np.int32), np.diff(table.doc_ptr))
        doc_len = np.bincount(doc_of, weights=table.counts, minlength=self.n_docs).astype(np.float64)
        avgdl = doc_len.mean() if self.n_docs and doc_len.sum() else 1.0
        counts_df = np.bincount(table.term_ids, minlength=n_terms)
        df = counts_df.astype(np.float64)
        idf = np.log(self.n_docs - df + 0.5) - np.log(df + 0.5)
        if n_terms:
            idf[idf < 0] = epsilon * idf.mean()
        self.idf = idf
        order = np.argsort(table.term_ids, kind="stable")
        self.term_ptr = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(counts_df, out=self.term_ptr[1:])
        self.post_doc = doc_of[order]
        tf = table.counts[order].astype(np.float64)
        norm = k1 * (1 - b + b * doc_len[self.post_doc] / avgdl)
        self.post_weight = idf[table.term_ids[order]] * tf * (k1 + 1) / (tf + norm)

    def term_ids(self, terms: Sequence[str]) -> list[int]:
        """Ids of the known ``terms`` (repeats kept, unknown terms dropped)."""
        return [self.vocab[t] for t in terms if t in self.vocab]

    def scores(self, terms: Sequence[str]) -> np.ndarray:
        """BM25 score of every document for the query ``terms`` (float64, zeros where no term occurs)."""
        out = np.zeros(self.n_docs, dtype=np.float64)
        for tid in self.term_ids(terms):
            lo, hi = self.term_ptr[tid], self.term_ptr[tid + 1]
            out[self.post_doc[lo:hi]] += self.post_weight[lo:hi]
        return out
