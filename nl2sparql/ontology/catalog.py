"""The ontology catalogue: every class, property and individual LiITA queries meet.

The entries are written by the project in ``nl2sparql/ontology/data/*.json``
(one file per vocabulary family). A file gives ``defaults`` for its entries and
named usage ``templates``; an entry's ``usage`` is a list of query lines or
``"@template"``. Usage text may hold placeholders (``{complit}``,
``{lemma_graph}``, ``{curie}`` ...) that are filled from
:mod:`nl2sparql.namespaces`, so no IRI is spelled twice; the ``PREFIX`` lines
a usage needs are added when the catalogue loads.

An entry says where its term lives (``where``): ``lemma_bank`` (inside
``GRAPH <http://liita.it/data>``), ``elita`` (inside ``GRAPH
<http://w3id.org/elita>``), ``liita`` (LiITA data outside any GRAPH clause),
``complit`` (inside ``SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>``)
or ``none`` (part of the vocabulary, absent from LiITA's data).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from ..errors import DataError
from ..namespaces import (COMPLIT_SERVICE, ELITA_GRAPH, EXTRA_PREFIXES, LEMMA_BANK, LIITA_GRAPH,
                          PARMIGIANO_LEMMA_BANK, PARMIGIANO_LEXICON, PREFIXES, SICILIANO_LEMMA_BANK,
                          SICILIANO_LEXICON)

DATA_DIR = Path(__file__).resolve().parent / "data"
#: Every prefix a catalogue CURIE may use: the LiITA prefixes, then the extra vocabularies.
CURIE_PREFIXES: dict[str, str] = {**PREFIXES, **EXTRA_PREFIXES}
KINDS = ("class", "property", "individual")
#: Where a term lives, and how a query reaches it.
PLACES: dict[str, str] = {
    "lemma_bank": f"the Italian lemma bank, GRAPH <{LIITA_GRAPH}> (outside SERVICE)",
    "elita": f"the ELITA emotion lexicon, GRAPH <{ELITA_GRAPH}> (outside SERVICE)",
    "liita": "LiITA data outside any GRAPH clause (no GRAPH needed, outside SERVICE)",
    "complit": f"CompL-it, inside SERVICE <{COMPLIT_SERVICE}>",
    "none": "the vocabulary only: not in LiITA's data",
}
PLACEHOLDERS: dict[str, str] = {
    "{complit}": f"<{COMPLIT_SERVICE}>",
    "{lemma_graph}": f"<{LIITA_GRAPH}>",
    "{elita_graph}": f"<{ELITA_GRAPH}>",
    "{lemma_bank}": f"<{LEMMA_BANK}>",
    "{sicilian_bank}": f"<{SICILIANO_LEMMA_BANK}>",
    "{parmigiano_bank}": f"<{PARMIGIANO_LEMMA_BANK}>",
    "{sicilian_lexicon}": f"<{SICILIANO_LEXICON}>",
    "{parmigiano_lexicon}": f"<{PARMIGIANO_LEXICON}>",
}
_REQUIRED = ("curie", "kind", "label", "aliases", "description", "where", "patterns", "usage")


@dataclass(frozen=True)
class Entry:
    """One catalogue term. Texts are ``{"en": ..., "it": ...}``; ``usage`` is a complete query."""

    curie: str
    iri: str
    kind: str
    label: dict[str, str]
    aliases: dict[str, tuple[str, ...]]
    description: dict[str, str]
    where: tuple[str, ...]
    patterns: tuple[str, ...]
    usage: str
    domain: str | None = None
    range: str | None = None
    inverse: str | None = None
    symmetric: bool = False
    parent: str | None = None
    notes: tuple[str, ...] = ()
    vocabulary: str = ""
    defined_by: str = ""

    @property
    def in_service(self) -> bool:
        """True when the term is queried inside the CompL-it SERVICE."""
        return "complit" in self.where

    def placement(self) -> str:
        """Where the term lives, in words."""
        return "; ".join(PLACES[w] for w in self.where)

    def texts(self) -> list[str]:
        """The searchable texts: labels, aliases and descriptions in Italian and English, and the CURIE."""
        local = self.curie.split(":", 1)[1]
        out = [f"{self.curie} {_split_camel(local)}"]
        for lang in ("en", "it"):
            out.append(self.label.get(lang, ""))
            out.extend(self.aliases.get(lang, ()))
            out.append(self.description.get(lang, ""))
        return [t for t in out if t]

    def to_dict(self) -> dict:
        """A JSON-ready dict with every field."""
        return {"curie": self.curie, "iri": self.iri, "kind": self.kind, "label": dict(self.label),
                "aliases": {k: list(v) for k, v in self.aliases.items()},
                "description": dict(self.description), "domain": self.domain, "range": self.range,
                "inverse": self.inverse, "symmetric": self.symmetric, "parent": self.parent,
                "where": list(self.where), "placement": self.placement(), "patterns": list(self.patterns),
                "usage": self.usage, "notes": list(self.notes), "vocabulary": self.vocabulary,
                "defined_by": self.defined_by}


@dataclass
class Catalog:
    """All entries, in file order, with lookup by CURIE or IRI."""

    entries: list[Entry]
    by_curie: dict[str, Entry] = field(default_factory=dict)
    by_iri: dict[str, Entry] = field(default_factory=dict)

    def __post_init__(self):
        self.by_curie = {e.curie: e for e in self.entries}
        self.by_iri = {e.iri: e for e in self.entries}

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, name: str) -> Entry | None:
        """The entry for a CURIE (``lexinfo:hypernym``), an IRI or an ``<IRI>``; ``None`` if unknown."""
        name = name.strip()
        if name.startswith("<") and name.endswith(">"):
            name = name[1:-1]
        return self.by_curie.get(name) or self.by_iri.get(name)


def expand_curie(curie: str) -> str:
    """The IRI of a catalogue CURIE; :class:`DataError` for an unknown prefix."""
    prefix, sep, local = curie.partition(":")
    if not sep or prefix not in CURIE_PREFIXES or not local:
        raise DataError(f"{curie!r} is not a CURIE with a known prefix ({', '.join(CURIE_PREFIXES)})")
    return CURIE_PREFIXES[prefix] + local


def compact_iri(iri: str) -> str:
    """``prefix:local`` for an IRI under a catalogue prefix, else ``<iri>``."""
    for prefix, ns in CURIE_PREFIXES.items():
        if iri.startswith(ns) and len(iri) > len(ns):
            return f"{prefix}:{iri[len(ns):]}"
    return f"<{iri}>"


def render_usage(body: str, curie: str) -> str:
    """Fill the placeholders of a usage body and prepend the PREFIX lines it uses."""
    from ..sparql.lexer import used_prefixes

    text = body.replace("{curie}", curie)
    for placeholder, value in PLACEHOLDERS.items():
        text = text.replace(placeholder, value)
    used = used_prefixes(text)
    unknown = sorted(used - set(CURIE_PREFIXES))
    if unknown:
        raise DataError(f"usage of {curie} uses unknown prefixes: {', '.join(unknown)}")
    prologue = "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in CURIE_PREFIXES.items() if p in used)
    return prologue + text


@lru_cache(maxsize=4)
def load_catalog(data_dir: str | None = None) -> Catalog:
    """Read and check every ``*.json`` catalogue file (cached per directory)."""
    folder = Path(data_dir) if data_dir else DATA_DIR
    files = sorted(folder.glob("*.json"))
    if not files:
        raise DataError(f"{folder}: no ontology catalogue files (*.json); reinstall nl2sparql")
    entries: list[Entry] = []
    seen: set[str] = set()
    for path in files:
        for entry in _read_file(path):
            if entry.curie in seen:
                raise DataError(f"{path.name}: {entry.curie} is defined twice in the ontology catalogue")
            seen.add(entry.curie)
            entries.append(entry)
    return Catalog(entries)


def _read_file(path: Path) -> list[Entry]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read the catalogue file ({exc})") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path} line {exc.lineno}: not valid JSON ({exc.msg})") from None
    defaults = doc.get("defaults", {})
    templates = {name: _lines(lines) for name, lines in doc.get("templates", {}).items()}
    out = []
    for raw in doc.get("entries", []):
        out.append(_entry({**defaults, **raw}, templates, path.name, doc))
    return out


def _entry(raw: dict, templates: dict[str, str], source: str, doc: dict) -> Entry:
    from ..patterns import LABELS

    curie = raw.get("curie", "?")
    where = f"{source}: {curie}"
    missing = [k for k in _REQUIRED if k not in raw]
    if missing:
        raise DataError(f"{where}: missing field(s) {', '.join(missing)}")
    if raw["kind"] not in KINDS:
        raise DataError(f"{where}: kind must be one of {', '.join(KINDS)}, not {raw['kind']!r}")
    bad_places = [w for w in raw["where"] if w not in PLACES]
    if bad_places or not raw["where"]:
        raise DataError(f"{where}: 'where' must list some of {', '.join(PLACES)} (got {raw['where']})")
    bad_labels = [p for p in raw["patterns"] if p not in LABELS]
    if bad_labels:
        raise DataError(f"{where}: unknown pattern label(s) {', '.join(bad_labels)}")
    for key in ("label", "description"):
        if not all(raw[key].get(lang) for lang in ("en", "it")):
            raise DataError(f"{where}: {key} needs both 'en' and 'it' text")
    usage = raw["usage"]
    if isinstance(usage, str) and usage.startswith("@"):
        if usage[1:] not in templates:
            raise DataError(f"{where}: unknown usage template {usage!r}")
        usage = templates[usage[1:]]
    else:
        usage = _lines(usage)
    for key in ("domain", "range", "inverse", "parent"):
        if raw.get(key):
            expand_curie(raw[key])
    return Entry(curie=curie, iri=expand_curie(curie), kind=raw["kind"], label=dict(raw["label"]),
                 aliases={lang: tuple(raw["aliases"].get(lang, ())) for lang in ("en", "it")},
                 description=dict(raw["description"]), where=tuple(raw["where"]),
                 patterns=tuple(raw["patterns"]), usage=render_usage(usage, curie),
                 domain=raw.get("domain"), range=raw.get("range"), inverse=raw.get("inverse"),
                 symmetric=bool(raw.get("symmetric", False)), parent=raw.get("parent"),
                 notes=tuple(raw.get("notes", ())), vocabulary=doc.get("vocabulary", ""),
                 defined_by=doc.get("defined_by", ""))


def _lines(value) -> str:
    return "\n".join(value) if isinstance(value, list) else str(value)


def _split_camel(name: str) -> str:
    """``partMeronym`` → ``part Meronym``; ``proper_noun`` → ``proper noun`` (so BM25 sees the words)."""
    out = []
    for i, ch in enumerate(name):
        if ch == "_":
            out.append(" ")
        elif ch.isupper() and i and name[i - 1].islower():
            out.append(" " + ch)
        else:
            out.append(ch)
    return "".join(out)
