"""A small typed SPARQL query model and its renderer.

Queries are built as trees of these nodes and rendered by :func:`render`,
never pasted together from strings: every literal goes through
:meth:`Lit.render`, which escapes it, and IRIs are compacted with the LiITA
prefixes. Only what the pattern catalogue needs is modelled.

>>> q = Select([Var("wr")], Group([Triple(Var("l"), IRI.of("ontolex:writtenRep"), Var("wr"))]),
...            order_by=[Var("wr")], limit=5)
>>> print(render(q))  # doctest: +NORMALIZE_WHITESPACE
PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
SELECT ?wr WHERE {
  ?l ontolex:writtenRep ?wr .
}
ORDER BY ?wr
LIMIT 5
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Sequence, Union

from ..namespaces import PREFIXES, XSD, expand

_LOCAL_OK = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


# -- terms -----------------------------------------------------------------
@dataclass(frozen=True)
class Var:
    """A variable ``?name``."""

    name: str

    def render(self, used: set[str]) -> str:
        return f"?{self.name}"


#: The separator of the lists the catalogue aggregates (``GROUP_CONCAT(DISTINCT ?x; separator=", ")``).
LIST_SEPARATOR = ", "


def unordered_list(text: str) -> str:
    """``text`` with its :data:`LIST_SEPARATOR` parts sorted: a ``GROUP_CONCAT``'s order is the engine's
    choice (the embedded store and a server join the same values in different orders), so scores and
    answer signatures read such a list as a set."""
    return LIST_SEPARATOR.join(sorted(text.split(LIST_SEPARATOR))) if LIST_SEPARATOR in text else text

@dataclass(frozen=True)
class IRI:
    """An IRI, rendered as ``prefix:local`` when a LiITA prefix fits."""

    value: str

    @staticmethod
    def of(curie: str) -> "IRI":
        """Build from ``prefix:local``."""
        return IRI(expand(curie))

    def render(self, used: set[str]) -> str:
        for prefix, ns in PREFIXES.items():
            if self.value.startswith(ns):
                local = self.value[len(ns):]
                if _LOCAL_OK.match(local):
                    used.add(prefix)
                    return f"{prefix}:{local}"
        if any(c in self.value for c in '<>"{}|^`\\ '):
            raise ValueError(f"invalid IRI {self.value!r}")
        return f"<{self.value}>"


@dataclass(frozen=True)
class Lit:
    """A literal; ``render`` escapes it for SPARQL."""

    value: Union[str, int, float]
    lang: str | None = None
    datatype: str | None = None

    def render(self, used: set[str]) -> str:
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        if isinstance(self.value, (int, float)) and self.lang is None and self.datatype is None:
            if isinstance(self.value, float) and not math.isfinite(self.value):  # repr gives nan / inf: not SPARQL
                lexical = "NaN" if self.value != self.value else ("INF" if self.value > 0 else "-INF")
                return f'"{lexical}"^^{IRI(XSD + "double").render(used)}'
            return repr(self.value)
        text = (str(self.value).replace("\\", "\\\\").replace('"', '\\"')
                .replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t"))
        if self.lang:
            if not re.fullmatch(r"[A-Za-z]+(-[A-Za-z0-9]+)*", self.lang):
                raise ValueError(f"invalid language tag {self.lang!r}")
            return f'"{text}"@{self.lang}'
        if self.datatype:
            return f'"{text}"^^{IRI(self.datatype).render(used)}'
        return f'"{text}"'


@dataclass(frozen=True)
class Path:
    """A property path: ``op`` is ``seq``, ``alt``, ``inv``, ``+`` or ``*``."""

    op: str
    args: tuple

    def render(self, used: set[str]) -> str:
        parts = [a.render(used) for a in self.args]
        if self.op == "seq":
            return "/".join(parts)
        if self.op == "alt":
            return "(" + "|".join(parts) + ")"
        if self.op == "inv":
            return "^" + parts[0]
        return parts[0] + self.op


Term = Union[Var, IRI, Lit]


# -- expressions -------------------------------------------------------------
@dataclass(frozen=True)
class Call:
    """A function call or aggregate, e.g. ``Call("STRSTARTS", (Call("STR", (v,)), Lit("ri")))``."""

    name: str
    args: tuple = ()
    distinct: bool = False
    #: ``GROUP_CONCAT``'s separator (``None``: the engine's default, a space).
    separator: str | None = None

    def render(self, used: set[str]) -> str:
        inner = ", ".join(a.render(used) for a in self.args) if self.args else ""
        if self.name == "COUNT" and not self.args:
            inner = "*"
        prefix = "DISTINCT " if self.distinct else ""
        if self.separator is not None:
            inner += f"; separator={Lit(self.separator).render(used)}"
        return f"{self.name}({prefix}{inner})"


@dataclass(frozen=True)
class Op:
    """A binary or n-ary operator expression (``=``, ``>``, ``&&``, ``||``, ``IN`` …)."""

    op: str
    args: tuple

    def render(self, used: set[str]) -> str:
        if self.op == "!":
            return f"!({self.args[0].render(used)})"
        if self.op == "IN":
            values = ", ".join(a.render(used) for a in self.args[1:])
            return f"{self.args[0].render(used)} IN ({values})"
        return "(" + f" {self.op} ".join(a.render(used) for a in self.args) + ")"


Expr = Union[Var, IRI, Lit, Call, Op]


def eq(a: Expr, b: Expr) -> Op:
    """``a = b``."""
    return Op("=", (a, b))


def str_(e: Expr) -> Call:
    """``STR(e)``."""
    return Call("STR", (e,))


def lcase(e: Expr) -> Call:
    """``LCASE(e)``."""
    return Call("LCASE", (e,))


# -- graph patterns ----------------------------------------------------------
@dataclass
class Triple:
    """``s p o .`` where ``p`` may be a path."""

    s: Term
    p: Union[IRI, Var, Path]
    o: Term

    def render(self, used: set[str], indent: str) -> str:
        return f"{indent}{self.s.render(used)} {self.p.render(used)} {self.o.render(used)} ."


@dataclass
class Filter:
    """``FILTER(expr)``."""

    expr: Expr

    def render(self, used: set[str], indent: str) -> str:
        text = self.expr.render(used)
        if not text.startswith("("):
            text = f"({text})"
        return f"{indent}FILTER{text}"


@dataclass
class Bind:
    """``BIND(expr AS ?var)``."""

    expr: Expr
    var: Var

    def render(self, used: set[str], indent: str) -> str:
        return f"{indent}BIND({self.expr.render(used)} AS {self.var.render(used)})"


@dataclass
class Values:
    """``VALUES ?var { … }``."""

    var: Var
    values: Sequence[Term]

    def render(self, used: set[str], indent: str) -> str:
        vals = " ".join(v.render(used) for v in self.values)
        return f"{indent}VALUES {self.var.render(used)} {{ {vals} }}"


@dataclass
class Group:
    """A group graph pattern ``{ … }``."""

    elements: list = field(default_factory=list)

    def add(self, *elements) -> "Group":
        """Append elements; returns self."""
        self.elements.extend(elements)
        return self

    def render_body(self, used: set[str], indent: str) -> list[str]:
        # a MINUS takes away from what the group matched before it: it goes after every other element
        ordered = [e for e in self.elements if not isinstance(e, Minus)] + \
                  [e for e in self.elements if isinstance(e, Minus)]
        return [el.render(used, indent) for el in ordered]

    def render(self, used: set[str], indent: str) -> str:
        inner = self.render_body(used, indent + "  ")
        return f"{indent}{{\n" + "\n".join(inner) + f"\n{indent}}}"


def _keyword_block(keyword: str, group: Group, used: set[str], indent: str) -> str:
    """``KEYWORD { … }`` with the group's elements indented one level."""
    inner = group.render_body(used, indent + "  ")
    if not inner:
        return f"{indent}{keyword} {{ }}"
    return f"{indent}{keyword} {{\n" + "\n".join(inner) + f"\n{indent}}}"


@dataclass
class GraphBlock:
    """``GRAPH <iri> { … }`` (or ``GRAPH ?g``)."""

    graph: Union[IRI, Var]
    group: Group

    def render(self, used: set[str], indent: str) -> str:
        return _keyword_block(f"GRAPH {self.graph.render(used)}", self.group, used, indent)


@dataclass
class Service:
    """``SERVICE <iri> { … }``."""

    endpoint: IRI
    group: Group

    def render(self, used: set[str], indent: str) -> str:
        return _keyword_block(f"SERVICE <{self.endpoint.value}>", self.group, used, indent)


@dataclass
class Optional_:
    """``OPTIONAL { … }``."""

    group: Group

    def render(self, used: set[str], indent: str) -> str:
        return _keyword_block("OPTIONAL", self.group, used, indent)


@dataclass
class Minus:
    """``MINUS { … }``: the solutions that share no compatible binding with the group.

    The same answers as ``FILTER NOT EXISTS`` when the group shares a variable that is always bound
    outside it (``?lemma``), and evaluated as one anti-join instead of a lookup per solution
    (Oxigraph: 1 s instead of 20 s for "emotion words without a Parmigiano translation" on the mirror).
    A group renders its MINUS blocks after its other elements, since MINUS removes from what precedes it.
    """

    group: Group

    def render(self, used: set[str], indent: str) -> str:
        return _keyword_block("MINUS", self.group, used, indent)


@dataclass
class Union_:
    """``{ … } UNION { … }``."""

    groups: list

    def render(self, used: set[str], indent: str) -> str:
        return f"\n{indent}UNION\n".join(g.render(used, indent) for g in self.groups)


@dataclass
class SubSelect:
    """A nested SELECT inside a group."""

    query: "Select"

    def render(self, used: set[str], indent: str) -> str:
        body = _render_select(self.query, used, indent + "  ")
        return f"{indent}{{\n{body}\n{indent}}}"


# -- queries -----------------------------------------------------------------
@dataclass
class Select:
    """A SELECT query. Projection items are variables or ``(expr, Var)`` pairs."""

    projection: list
    where: Group
    distinct: bool = False
    group_by: list = field(default_factory=list)
    having: list = field(default_factory=list)
    order_by: list = field(default_factory=list)  # Var/Expr, or ("DESC", expr)
    limit: int | None = None
    offset: int | None = None


@dataclass
class Ask:
    """An ASK query."""

    where: Group


def _render_select(q: Select, used: set[str], indent: str = "") -> str:
    items = []
    for item in q.projection:
        if isinstance(item, tuple):
            expr, var = item
            items.append(f"({expr.render(used)} AS {var.render(used)})")
        else:
            items.append(item.render(used))
    head = f"{indent}SELECT {'DISTINCT ' if q.distinct else ''}{' '.join(items) or '*'} WHERE {{"
    lines = [head, *q.where.render_body(used, indent + "  "), f"{indent}}}"]
    if q.group_by:
        lines.append(f"{indent}GROUP BY " + " ".join(g.render(used) for g in q.group_by))
    if q.having:
        lines.append(f"{indent}HAVING " + " ".join(f"({h.render(used)})" for h in q.having))
    if q.order_by:
        keys = []
        for k in q.order_by:
            if isinstance(k, tuple):
                keys.append(f"{k[0]}({k[1].render(used)})")
            elif isinstance(k, Var):
                keys.append(k.render(used))
            else:
                keys.append(f"({k.render(used)})")
        lines.append(f"{indent}ORDER BY " + " ".join(keys))
    if q.limit is not None:
        lines.append(f"{indent}LIMIT {int(q.limit)}")
    if q.offset:
        lines.append(f"{indent}OFFSET {int(q.offset)}")
    return "\n".join(lines)


def render(query: Union[Select, Ask]) -> str:
    """Render a query with the PREFIX lines it needs (stable order)."""
    used: set[str] = set()
    if isinstance(query, Ask):
        body = "ASK {\n" + "\n".join(query.where.render_body(used, "  ")) + "\n}"
    else:
        body = _render_select(query, used)
    prologue = "".join(f"PREFIX {p}: <{PREFIXES[p]}>\n" for p in PREFIXES if p in used)
    return prologue + body + "\n"
