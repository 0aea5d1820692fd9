"""The normalised result table every backend returns.

A :class:`ResultTable` is what the execution filter, the scorer and the CLI
read, whatever answered the query (embedded Oxigraph or a remote endpoint).
Cells are :class:`Term` values that keep what matters for comparison: IRI vs
literal vs blank node, the datatype and the language tag. A plain literal and
an ``xsd:string`` literal are the same term (RDF 1.1), so ``xsd:string`` is
stored as ``datatype=None``.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Iterable, Literal as TypingLiteral, Optional

from ..namespaces import RDF_LANGSTRING, XSD_STRING

TermKind = TypingLiteral["iri", "literal", "bnode", "triple"]


@dataclass(frozen=True, slots=True)
class Term:
    """One RDF term in a result cell."""

    kind: TermKind
    value: str
    datatype: Optional[str] = None
    lang: Optional[str] = None

    @staticmethod
    def iri(value: str) -> "Term":
        """An IRI term."""
        return Term("iri", value)

    @staticmethod
    def literal(value: str, datatype: str | None = None, lang: str | None = None) -> "Term":
        """A literal; ``xsd:string`` and ``rdf:langString`` datatypes are folded away."""
        if datatype in (XSD_STRING, RDF_LANGSTRING):
            datatype = None
        return Term("literal", value, datatype, lang.lower() if lang else None)

    @staticmethod
    def bnode(value: str) -> "Term":
        """A blank node (its label is only meaningful within one result)."""
        return Term("bnode", value)

    def n3(self) -> str:
        """The term in N-Triples / SPARQL syntax."""
        if self.kind == "iri":
            return f"<{self.value}>"
        if self.kind == "bnode":
            return f"_:{self.value}"
        if self.kind == "triple":
            return f"<< {self.value} >>"
        escaped = (self.value.replace("\\", "\\\\").replace('"', '\\"')
                   .replace("\n", "\\n").replace("\r", "\\r"))
        if self.lang:
            return f'"{escaped}"@{self.lang}'
        if self.datatype:
            return f'"{escaped}"^^<{self.datatype}>'
        return f'"{escaped}"'

    def to_json(self) -> dict:
        """The SPARQL 1.1 JSON results encoding of this term."""
        if self.kind == "iri":
            return {"type": "uri", "value": self.value}
        if self.kind == "bnode":
            return {"type": "bnode", "value": self.value}
        if self.kind == "triple":
            return {"type": "triple", "value": self.value}
        out: dict = {"type": "literal", "value": self.value}
        if self.lang:
            out["xml:lang"] = self.lang
        elif self.datatype:
            out["datatype"] = self.datatype
        return out

    @staticmethod
    def from_json(obj: dict) -> "Term":
        """Read a term from the SPARQL 1.1 JSON results encoding."""
        kind = obj.get("type")
        if kind == "uri":
            return Term.iri(obj["value"])
        if kind == "bnode":
            return Term.bnode(obj["value"])
        if kind in ("literal", "typed-literal"):
            return Term.literal(obj["value"], obj.get("datatype"), obj.get("xml:lang"))
        if kind == "triple":
            return Term("triple", json.dumps(obj["value"], sort_keys=True))
        raise ValueError(f"unknown SPARQL JSON term type {kind!r}")

    def __str__(self) -> str:
        return self.value


Row = tuple[Optional[Term], ...]


@dataclass(slots=True)
class ResultTable:
    """A normalised query result.

    ``form`` is ``select``, ``ask`` or ``construct``. SELECT results keep the
    projected variable order and every row (``None`` for unbound cells); ASK
    results have ``boolean`` set and no rows; CONSTRUCT/DESCRIBE results are
    tables over ``s p o``. ``truncated`` is true when the row cap cut the result.
    """

    form: str
    variables: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    boolean: Optional[bool] = None
    truncated: bool = False
    elapsed: float = 0.0

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def is_empty(self) -> bool:
        """True for an ASK answering false or a table without rows."""
        if self.form == "ask":
            return not self.boolean
        return not self.rows

    def column(self, name: str) -> list[Optional[Term]]:
        """All cells of one variable."""
        i = self.variables.index(name)
        return [row[i] for row in self.rows]

    def records(self) -> list[dict[str, Optional[Term]]]:
        """Rows as ``{variable: term}`` dicts."""
        return [dict(zip(self.variables, row)) for row in self.rows]

    # -- serialisation -------------------------------------------------
    def to_json(self) -> dict:
        """SPARQL 1.1 JSON results (plus ``truncated``)."""
        if self.form == "ask":
            return {"head": {}, "boolean": bool(self.boolean)}
        bindings = [
            {v: t.to_json() for v, t in zip(self.variables, row) if t is not None}
            for row in self.rows
        ]
        out = {"head": {"vars": list(self.variables)}, "results": {"bindings": bindings}}
        if self.truncated:
            out["truncated"] = True
        return out

    @staticmethod
    def from_json(obj: dict, form: str | None = None) -> "ResultTable":
        """Read SPARQL 1.1 JSON results."""
        if "boolean" in obj:
            return ResultTable("ask", boolean=bool(obj["boolean"]))
        variables = list(obj.get("head", {}).get("vars", []))
        rows = []
        for binding in obj.get("results", {}).get("bindings", []):
            rows.append(tuple(Term.from_json(binding[v]) if v in binding else None
                              for v in variables))
        return ResultTable(form or "select", variables, rows,
                           truncated=bool(obj.get("truncated", False)))

    def to_csv(self) -> str:
        """CSV with one header line (SPARQL 1.1 CSV results: values only)."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        if self.form == "ask":
            writer.writerow(["boolean"])
            writer.writerow(["true" if self.boolean else "false"])
            return buf.getvalue()
        writer.writerow(self.variables)
        for row in self.rows:
            writer.writerow(["" if t is None else t.value for t in row])
        return buf.getvalue()

    def to_tsv(self) -> str:
        """SPARQL 1.1 TSV results: ``?var`` headers, terms in N-Triples syntax (a SELECT table)."""
        lines = ["\t".join(f"?{v}" for v in self.variables)]
        lines += ["\t".join("" if t is None else t.n3() for t in row) for row in self.rows]
        return "\n".join(lines) + "\n"

    def to_ntriples(self) -> str:
        """The triples of a CONSTRUCT or DESCRIBE table as N-Triples."""
        return "".join(" ".join(term.n3() for term in row) + " .\n" for row in self.rows)

    @staticmethod
    def from_rows(variables: Iterable[str], rows: Iterable[Iterable[Optional[Term]]],
                  form: str = "select") -> "ResultTable":
        """Build a table from Python values (mostly for tests)."""
        return ResultTable(form, list(variables), [tuple(r) for r in rows])
