"""English (and other non-Italian) content words → Italian lemmas of the KB, offline.

"List the kinds of fruit", "How do you say cheese in Parmigiano?": the word a
question names is looked up among the KB's own Italian written forms (the
Lemma Bank and CompL-it); when it is not one of them, the multilingual
Universal Sentence Encoder already used for retrieval (:mod:`.embedders`)
embeds it and the nearest Italian written forms are its candidates. Every
candidate is a written form of the KB, so a mapped word always names a lemma
that exists. The translation says which lemma was chosen (the ``concepts``
slot, with the alternatives and their scores), so a user can see and correct
it.

The written forms are a per-KB artefact (:mod:`nl2sparql.kb.artefacts`: read
from the KB once per content, then from ``cache/kb/``), and a process keeps one
:class:`Lexicon` per KB content (:func:`shared_lexicon`). The lexicon's embeddings
are cached per KB content in ``cache/concepts/<embedder>-<key>.npy`` (key:
SHA-256 of the written forms), written atomically and memory-mapped when read; a
sample-sized lexicon embeds in about a second, the full mirror's in minutes, once.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..folding import fold
from ..namespaces import COMPLIT_SERVICE, LEMMA_BANK
from .embedders import blas_threads, encode_batched, get_embedder

LEMMAS = ("PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nPREFIX dcterms: <http://purl.org/dc/terms/>\n"
          "PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n"
          f"SELECT DISTINCT ?wr ?pos WHERE {{ ?l dcterms:isPartOf <{LEMMA_BANK}> ; ontolex:writtenRep ?wr . "
          "OPTIONAL { ?l lila:hasPOS ?pos } }")
COMPLIT_WORDS = ("PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\n"
                 "PREFIX lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#>\n"
                 f"SELECT DISTINCT ?wr ?pos WHERE {{ SERVICE <{COMPLIT_SERVICE}> {{ ?w a ontolex:Word ; "
                 "ontolex:canonicalForm ?f . ?f ontolex:writtenRep ?wr . OPTIONAL { ?w lexinfo:partOfSpeech ?pos } } }")
#: Parts of speech a mapping may be asked for (the local names of LiLa's and LexInfo's POS IRIs).
POS_NAMES = ("noun", "verb", "adjective", "adverb")
#: Below this cosine a word has no Italian counterpart in the KB (it is left as written).
MIN_SCORE = 0.45
ROW_CAP = 2_000_000
#: The least time budget (s) of the lexicon's queries: they run once per KB content (see :mod:`nl2sparql.kb.artefacts`).
BUILD_TIMEOUT = 120.0


@dataclass
class Mapping:
    """A word a question names, mapped to an Italian written form of the KB."""

    slot: str
    written: str
    lemma: str
    score: float
    alternatives: list[tuple[str, float]]

    def to_dict(self) -> dict:
        """JSON-ready: the slot, what was written, what was chosen, the score and the other candidates."""
        return {"slot": self.slot, "written": self.written, "lemma": self.lemma, "score": round(self.score, 3),
                "alternatives": [{"lemma": w, "score": round(s, 3)} for w, s in self.alternatives]}


class Lexicon:
    """The KB's Italian written forms, their parts of speech and (on first use) their embeddings."""

    def __init__(self, forms: list[str], pos: list[str], embedder=None, cache: Path | None = None):
        self.forms, self.pos = forms, pos
        self.known = {fold(f) for f in forms}
        self.embedder, self.cache = embedder, cache
        self._vectors: np.ndarray | None = None
        self._masks: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @staticmethod
    def from_kb(kb, embedder=None, cache_root: Path | None = None) -> "Lexicon":
        """Read the written forms of the KB's Lemma Bank and CompL-it words (one clear error if the KB fails).

        The forms are a per-KB artefact (:mod:`nl2sparql.kb.artefacts`): read from the KB once per content.
        """
        from ..kb.artefacts import builder_version, get_artefact
        ordered = [tuple(p) for p in get_artefact(kb, "lexicon", lambda: written_forms(kb),
                                                  version=builder_version(written_forms), what="the lemma lexicon")]
        forms, pos = [f for f, _ in ordered], [p for _, p in ordered]
        cache = None
        if cache_root is not None and embedder is not None:
            key = hashlib.sha256("\n".join(f"{f}\t{p}" for f, p in ordered).encode()).hexdigest()[:20]
            cache = cache_root / f"{embedder.name.replace(':', '_').replace('/', '_')}-{key}.npy"
        return Lexicon(forms, pos, embedder, cache)

    def is_italian(self, word: str) -> bool:
        """True when ``word`` is a written form of the KB (case and accents aside)."""
        return fold(word) in self.known

    def vectors(self) -> np.ndarray:
        """The unit embeddings of the forms (read from the cache, or computed and cached)."""
        with self._lock:
            if self._vectors is None:
                self._vectors = self._load() if self.cache is not None else None
                if self._vectors is None or self._vectors.shape[0] != len(self.forms):
                    self._vectors = encode_batched(self.embedder, self.forms)
                    self._save()
            return self._vectors

    def _load(self) -> np.ndarray | None:
        try:
            # mapped, not read: processes share the pages, and a start does not wait for the whole file
            return np.load(self.cache, mmap_mode="r") if self.cache.is_file() else None
        except (OSError, ValueError):
            return None

    def _save(self) -> None:
        if self.cache is None:
            return
        from ..fileio import atomic_write
        try:
            atomic_write(self.cache, lambda tmp: np.save(open(tmp, "wb"), self._vectors))
        except OSError:
            pass  # a read-only cache only costs the next start the embedding again

    def nearest(self, word: str, pos: str | None = None, k: int = 3) -> list[tuple[str, float]]:
        """The ``k`` nearest Italian written forms to ``word`` (of part of speech ``pos`` when given), best first."""
        if self.embedder is None or not self.forms:
            return []
        vectors = self.vectors()
        with blas_threads(1):
            query = self.embedder.encode([word])[0]
            scores = vectors @ query
        if pos:
            scores = np.where(self._pos_mask(pos), scores, -1.0)
        out: list[tuple[str, float]] = []
        for i in np.argsort(-scores):
            if scores[i] <= -1.0 or len(out) >= k:
                break
            if all(self.forms[i] != w for w, _ in out):
                out.append((self.forms[i], float(scores[i])))
        return out

    def _pos_mask(self, pos: str) -> np.ndarray:
        """Which forms have part of speech ``pos`` (computed once per part of speech)."""
        mask = self._masks.get(pos)
        if mask is None:
            mask = self._masks[pos] = np.array([p == pos for p in self.pos], dtype=bool)
        return mask


def written_forms(kb) -> list[tuple[str, str]]:
    """The KB's one-word written forms with their part of speech (``""`` when none), sorted, each pair once."""
    pairs: set[tuple[str, str]] = set()
    for query in (LEMMAS, COMPLIT_WORDS):
        # the rows (hundreds of thousands on the full KB) are reduced where the query ran
        pairs.update(kb.digest(query, _form_pairs, max_rows=ROW_CAP, timeout=max(kb.limits.timeout, BUILD_TIMEOUT)))
    return sorted(pairs)


def _form_pairs(table) -> set[tuple[str, str]]:
    pairs = set()
    for row in table.rows:
        wr = row[0].value.strip() if row[0] is not None else ""
        pos = _pos_name(row[1].value) if len(row) > 1 and row[1] is not None else ""
        if wr and " " not in wr:
            pairs.add((wr, pos))
    return pairs


def _pos_name(iri: str) -> str:
    local = iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    return local if local in POS_NAMES else ""


class ConceptMapper:
    """Maps the content words a question names to Italian lemmas of a KB (see the module docstring).

    ``kb`` is the KB (or a callable returning it, opened on first use); ``embedder`` names the
    sentence encoder (default: the multilingual USE). A KB that cannot be read, or no embedder,
    switches mapping off with a warning.
    """

    #: Slots that name a lemma and may be mapped, with the part of speech expected there.
    SLOTS = (("word", None), ("relation_target", None), ("definition_contains", None))

    def __init__(self, kb, embedder: str | None = None, cache_root: Path | None = None):
        self._kb = kb
        self._embedder_name = embedder
        self._cache_root = cache_root
        self._lexicon: Lexicon | None = None
        self._lock = threading.Lock()
        self.warnings: list[str] = []

    def lexicon(self) -> Lexicon | None:
        """The KB's lexicon (built on first use; ``None`` when it cannot be)."""
        with self._lock:
            if self._lexicon is None and not self.warnings:
                self._lexicon = self._build()
            return self._lexicon

    def _build(self) -> Lexicon | None:
        from ..errors import Nl2SparqlError
        from ..paths import cache_dir
        embedder, reason = get_embedder(self._embedder_name)
        if embedder is None:
            self.warnings.append(f"English words are not mapped to Italian lemmas: {reason}")
            return None
        try:
            kb = self._kb() if callable(self._kb) else self._kb
            return shared_lexicon(kb, embedder, self._cache_root or cache_dir() / "concepts")
        except Nl2SparqlError as exc:
            self.warnings.append(f"English words are not mapped to Italian lemmas: the KB's lexicon failed ({exc})")
            return None

    def candidates(self, word: str, pos: str | None = None, k: int = 3) -> list[tuple[str, float]]:
        """Italian written forms for ``word``, best first (the word itself when it is one)."""
        lexicon = self.lexicon()
        if lexicon is None or not word:
            return []
        if lexicon.is_italian(word):
            return [(word, 1.0)]
        return lexicon.nearest(word, pos, k)

    def map_slots(self, slots) -> list[Mapping]:
        """Replace every slot value that is no Italian written form by its nearest one; returns what changed."""
        changed = []
        for name, pos in self.SLOTS:
            value = getattr(slots, name, None)
            if not isinstance(value, str) or not value.strip() or " " in value.strip():
                continue
            lexicon = self.lexicon()
            if lexicon is None:
                return changed
            if lexicon.is_italian(value):
                continue
            if not is_english_word(value):
                # in neither the KB nor English: reported, never swapped for a look-alike («xyzzola» → «zola»)
                slots.notes.append(NOT_IN_KB + value)
                continue
            found = lexicon.nearest(value, pos, 3) or lexicon.nearest(value, None, 3)
            if not found or found[0][1] < MIN_SCORE:
                continue
            found = common_first(found)
            lemma, score = found[0]
            setattr(slots, name, lemma.lower() if name == "definition_contains" else lemma)
            changed.append(Mapping(name, value, lemma, score, found[1:]))
        return changed


#: The slot note of a word that is neither in the KB nor an English word the concept model may map.
NOT_IN_KB = "not in LiITA: "
#: Below this Zipf frequency (wordfreq; about once per 10 million words) a word is no English word to map.
MIN_ENGLISH_ZIPF = 2.0


def is_english_word(word: str) -> bool:
    """True when ``word`` is an English word people use (wordfreq's English frequencies), so mapping it to an
    Italian lemma by meaning makes sense; a typo or an invented word is not one."""
    from wordfreq import zipf_frequency
    return zipf_frequency(word.lower(), "en") >= MIN_ENGLISH_ZIPF


#: Candidates this close to the nearest one are ordered by how common they are in Italian.
CLOSE = 0.02


def common_first(found: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The candidates, the most common Italian word first among those within :data:`CLOSE` of the nearest: the
    encoder puts «medo» (archaic) a hair before «paura» for "fear" (near ties only: a wider window trades a
    right rarer word for a wrong common one)."""
    from wordfreq import zipf_frequency
    best = found[0][1]
    close = sorted((c for c in found if best - c[1] <= CLOSE), key=lambda c: -zipf_frequency(c[0].lower(), "it"))
    return close + [c for c in found if best - c[1] > CLOSE]


def shared_lexicon(kb, embedder, cache_root: Path) -> Lexicon:
    """The process's one :class:`Lexicon` of ``kb``'s content for ``embedder`` (its embeddings loaded once)."""
    from ..kb.artefacts import get_artefact
    return get_artefact(kb, f"concept-index-{embedder.name}-{cache_root}",
                        lambda: Lexicon.from_kb(kb, embedder, cache_root), version="", what="the concept index",
                        persist=False)


def word_mapper(kb):
    """``bench/word_mapping.py`` factory: ``mapper(english, pos) -> [italian, …]`` over ``kb``'s lexicon."""
    concepts = ConceptMapper(kb)

    def mapper(english: str, pos: str) -> list[str]:
        lexicon = concepts.lexicon()
        if lexicon is None:
            return []
        found = lexicon.nearest(english, pos if pos in POS_NAMES else None, 3)
        return [w for w, _ in (common_first(found) if found else [])]
    return mapper
