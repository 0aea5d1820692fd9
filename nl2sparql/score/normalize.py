"""RDF-aware normalisation of result cells into hashable comparison keys.

Every cell of a :class:`~nl2sparql.kb.results.ResultTable` becomes a short
string key so that column fingerprints, row multisets and set operations run
on plain ``str`` hashes (cached by Python) instead of dataclass hashes:

* IRIs and literals never collide (``<http://x>`` differs from ``"http://x"``);
* a plain literal and an ``xsd:string`` literal are the same value;
* numeric literals (``xsd:integer``, ``decimal``, ``float``, ``double`` and the
  derived integer types) compare by value: ``"1"^^xsd:integer``,
  ``"1.0"^^xsd:decimal`` and ``"1E0"^^xsd:double`` share one key, optionally
  after rounding to a fixed number of decimal places;
* language tags are kept (``"gatto"@it`` differs from ``"gatto"``) or
  ignored, by policy;
* blank nodes all share one key (their labels mean nothing across results);
* unbound cells have their own key.

Numeric tolerance cannot be expressed through hashing, so keys of numeric
cells start with :data:`NUM_PREFIX` and :func:`numeric_value` reads the value
back for tolerant comparisons.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from typing import Iterable, Literal, Optional, Sequence

from ..kb.results import Term
from ..namespaces import RDF_LANGSTRING, XSD, XSD_STRING
from ..sparql.model import unordered_list

LangPolicy = Literal["keep", "ignore"]

NUM_PREFIX = "n\x1f"
"""Prefix of every numeric key (the rest is a canonical decimal string)."""

UNBOUND_KEY = "u\x1f"
BNODE_KEY = "b\x1f"

NUMERIC_DATATYPES: frozenset[str] = frozenset(XSD + name for name in (
    "integer", "decimal", "float", "double", "long", "int", "short", "byte",
    "nonPositiveInteger", "negativeInteger", "nonNegativeInteger", "positiveInteger",
    "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte",
))

_SPECIAL_FLOATS = {"INF": "inf", "+INF": "inf", "-INF": "-inf", "NAN": "nan"}


@dataclass(frozen=True, slots=True)
class NormOptions:
    """How cells are normalised: language-tag policy and numeric rounding."""

    lang: LangPolicy = "keep"
    round_digits: Optional[int] = None

    def __post_init__(self) -> None:
        if self.lang not in ("keep", "ignore"):
            from ..errors import ConfigError
            raise ConfigError(f"language-tag policy must be 'keep' or 'ignore', not {self.lang!r}")


class Normalizer:
    """Turns terms into comparison keys under one :class:`NormOptions`.

    Numeric conversions are cached per ``(lexical form, datatype)``; one
    normaliser can be reused for any number of tables.
    """

    def __init__(self, options: NormOptions | None = None):
        self.options = options or NormOptions()
        self._keep_lang = self.options.lang == "keep"
        self._quantum: Optional[Decimal] = (
            None if self.options.round_digits is None
            else Decimal(1).scaleb(-int(self.options.round_digits)))
        self._numeric_cache: dict[str, str] = {}  # lexical form -> key, for well-formed numbers

    def key(self, term: Optional[Term]) -> str:
        """The comparison key of one cell (``None`` means unbound)."""
        if term is None:
            return UNBOUND_KEY
        kind = term.kind
        if kind == "literal":
            datatype = term.datatype
            if datatype in NUMERIC_DATATYPES:
                hit = self._numeric_cache.get(term.value)
                return hit if hit is not None else self._numeric_key(term.value, datatype)
            if datatype is None or datatype == XSD_STRING or datatype == RDF_LANGSTRING:
                lang, value = term.lang, unordered_list(term.value)
                if lang and self._keep_lang:
                    return "l\x1f" + lang.lower() + "\x1f" + value
                return "s\x1f" + value
            return "t\x1f" + term.value + "\x1f" + datatype
        if kind == "iri":
            return "i\x1f" + term.value
        if kind == "bnode":
            return BNODE_KEY
        return "x\x1f" + term.value

    def keys(self, terms: Iterable[Optional[Term]]) -> list[str]:
        """Keys of a sequence of cells."""
        key = self.key
        return [key(t) for t in terms]

    def column_keys(self, rows: Sequence[Sequence[Optional[Term]]], width: int) -> list[list[str]]:
        """The keys of a table, column by column (``width`` columns).

        Same result as :meth:`key` on every cell. Columns are usually
        homogeneous (all IRIs, all strings, all numbers), so those get a
        single comprehension each: this loop dominates the cost of a comparison.
        """
        if not rows:
            return [[] for _ in range(width)]
        return [self._column(col) for col in zip(*rows)]

    def _column(self, col: Sequence[Optional[Term]]) -> list[str]:
        try:
            kinds = {t.kind for t in col}  # type: ignore[union-attr]
        except AttributeError:  # an unbound cell
            return [self.key(t) for t in col]
        if kinds == {"iri"}:
            return ["i\x1f" + t.value for t in col]  # type: ignore[union-attr]
        if kinds == {"literal"}:
            datatypes = {t.datatype for t in col}  # type: ignore[union-attr]
            if datatypes == {None}:
                if self._keep_lang:
                    return ["l\x1f" + t.lang.lower() + "\x1f" + unordered_list(t.value)  # type: ignore[union-attr]
                            if t.lang else "s\x1f" + unordered_list(t.value) for t in col]  # type: ignore[union-attr]
                return ["s\x1f" + unordered_list(t.value) for t in col]  # type: ignore[union-attr]
            if datatypes <= NUMERIC_DATATYPES:
                get = self._numeric_cache.get
                slow = self._numeric_key
                return [get(t.value) or slow(t.value, t.datatype) for t in col]  # type: ignore[union-attr]
        return [self.key(t) for t in col]

    def _numeric_key(self, lexical: str, datatype: str) -> str:
        """Key of a numeric literal; well-formed numbers are cached by lexical form.

        The key of a number does not depend on its datatype, so one cache
        entry serves ``"2"^^xsd:integer`` and ``"2"^^xsd:double`` alike; an
        ill-typed literal keeps its datatype in its key and is not cached.
        """
        text = lexical.strip()
        fast = None if self._quantum is not None else _fast_canonical(text)
        special = None if fast is not None else _SPECIAL_FLOATS.get(text.upper())
        if fast is not None:
            out = NUM_PREFIX + fast
        elif special is not None:
            out = NUM_PREFIX + special
        else:
            try:
                value = Decimal(text)
                if not value.is_finite():
                    raise InvalidOperation
            except InvalidOperation:
                return "t\x1f" + lexical + "\x1f" + datatype  # ill-typed literal: compare as written
            if self._quantum is not None:
                value = value.quantize(self._quantum, rounding=ROUND_HALF_EVEN)
            out = NUM_PREFIX + _canonical(value)
        self._numeric_cache[lexical] = out
        return out


def _fast_canonical(text: str) -> Optional[str]:
    """:func:`_canonical` for plain ``[+-]digits[.digits]`` text without Decimal (``None`` otherwise)."""
    if text.isdigit() and text.isascii():  # the common case: a plain non-negative integer
        return text.lstrip("0") or "0"
    negative = text[:1] == "-"
    if text[:1] in "+-":
        text = text[1:]
    whole, _, fraction = text.partition(".")
    digits = whole + fraction
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    whole = whole.lstrip("0") or "0"
    fraction = fraction.rstrip("0")
    if whole == "0" and not fraction:
        return "0"
    return ("-" if negative else "") + whole + ("." + fraction if fraction else "")


def _canonical(value: Decimal) -> str:
    """A canonical plain-notation string of a finite decimal (``1.50`` → ``1.5``)."""
    if value == 0:
        return "0"
    normal = value.normalize()
    sign, digits, exponent = normal.as_tuple()
    assert isinstance(exponent, int)
    if exponent >= 0:
        text = "".join(map(str, digits)) + "0" * exponent
    else:
        body = "".join(map(str, digits)).rjust(-exponent + 1, "0")
        text = body[:exponent] + "." + body[exponent:]
    return ("-" if sign else "") + text


def is_numeric_key(key: str) -> bool:
    """True when ``key`` is the key of a numeric literal."""
    return key.startswith(NUM_PREFIX)


def numeric_value(key: str) -> float:
    """The float value of a numeric key (``nan``/``inf`` included)."""
    return float(key[len(NUM_PREFIX):])


def numbers_close(a: float, b: float, tolerance: float) -> bool:
    """Whether two numbers agree within ``tolerance``.

    The tolerance is absolute for magnitudes up to 1 and relative above
    (``|a - b| <= tolerance * max(1, |a|, |b|)``), so that it means the same
    for a ratio and for a count in the millions. ``nan`` equals ``nan``.
    """
    if a == b:
        return True
    if a != a or b != b:  # nan
        return a != a and b != b
    return abs(a - b) <= tolerance * max(1.0, abs(a), abs(b))


def keys_close(a: str, b: str, tolerance: float) -> bool:
    """Whether two cell keys are equal, numeric keys within ``tolerance``."""
    if a == b:
        return True
    if tolerance > 0 and is_numeric_key(a) and is_numeric_key(b):
        return numbers_close(numeric_value(a), numeric_value(b), tolerance)
    return False


def coarse_key(key: str) -> str:
    """The key with any numeric value erased (used to bucket under tolerance)."""
    return NUM_PREFIX if is_numeric_key(key) else key


def describe_key(key: str) -> str:
    """A short human-readable form of a key, for mismatch messages."""
    kind, _, rest = key.partition("\x1f")
    if kind == "i":
        return f"<{rest}>"
    if kind == "s":
        return f'"{rest}"'
    if kind == "l":
        lang, _, value = rest.partition("\x1f")
        return f'"{value}"@{lang}'
    if kind == "n":
        return rest
    if kind == "t":
        value, _, datatype = rest.partition("\x1f")
        return f'"{value}"^^<{datatype}>'
    if kind == "b":
        return "[blank node]"
    if kind == "u":
        return "[unbound]"
    return rest
