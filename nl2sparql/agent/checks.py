"""Verification: does a query answer *the question*, not only run? Every check of the agent, in one place.

What the answer must be comes from the translator's reading of the question
(:meth:`~nl2sparql.translate.offline.OfflineTranslator.translate`: its slots and
the plan it chose) and from the catalogue, never from cue words of the agent's
own. :func:`expectations` turns that reading into plain data:

* ``form``: ``ask`` (the reader read a yes/no question), ``count`` (the
  reading's query is one number) or ``rows``; ``number``: the question asks how many of
  something (a number must be in the answer, in a column or as the count);
* ``words``: the words the question names, each with the spellings that stand
  for it (an English word mapped to an Italian lemma stands for the lemma and
  the mapper's other candidates);
* ``values``: the closed-vocabulary values read (emotions, parts of speech,
  gender, polarity classes, dialects) as the IRIs a query must use;
  ``affixes``: the affixes and definition texts searched;
* ``shows``: value kinds the answer must hold (``emotion`` for "which
  emotions", ``polarity``, ``pairs`` for "the translations of the words that …");
* ``gaps``: what the reading itself says it could not read (a word with no
  fact asked, a list with no constraint, a query borrowed from an example).

:func:`query_problems` checks a query's text against them (no KB needed, so
candidates are sorted before they cost a run; the patterns a question merely
cues are no check: on the open reference set a query that leaves a cued
pattern out is right as often as one that does not); :func:`answer_problems` checks
what the query returned (never verified: an error, an empty answer, every lemma
of the KB, an answer of another type). The yes/no check runs the positive
query an ASK stands for (:func:`positive_query`), see :mod:`.nodes`.
"""

from __future__ import annotations

from ..folding import fold
from ..namespaces import PREFIXES
from ..sparql.lexer import declared_prefixes, tokenize
from .query import is_count, outline, token_iri

#: Slot → (vocabulary kind, namespace) of the values a query must use.
VALUE_SLOTS = (("emotions", "emotion", PREFIXES["elita"]), ("pos_any", "pos", PREFIXES["lila"]),
               ("pos", "pos", PREFIXES["lila"]), ("gender", "gender", PREFIXES["lila"]),
               ("polarity", "polarity", PREFIXES["marl"]))
#: Slots naming words the query must use.
WORD_SLOTS = ("word", "relation_target", "translation_target")
#: Slot flags that ask to see values of a kind → that kind.
SHOW_SLOTS = (("emotion_project", "emotion"), ("polarity_project", "polarity"), ("translation_pairs", "pairs"))


def expectations(question: str, reading: dict) -> dict:
    """What the answer to ``question`` must be, from the translator's ``reading``
    (:meth:`OfflineResult.to_dict`, with ``sparql``)."""
    slots = reading.get("slots") or {}
    sparql = reading.get("sparql") or ""
    mapped = {c.get("slot"): c for c in slots.get("concepts") or []}
    words = []
    for name in WORD_SLOTS:
        value = slots.get(name)
        if isinstance(value, str) and value.strip():
            concept = mapped.get(name) or {}
            spellings = [value, concept.get("written")] + [a["lemma"] for a in concept.get("alternatives") or []]
            words.append({"word": value, "spellings": [s for s in dict.fromkeys(spellings) if s]})
    words += [{"word": w, "spellings": [w]} for w in slots.get("listed") or [] if w not in {x["word"] for x in words}]
    values = []
    for name, kind, base in VALUE_SLOTS:
        given = slots.get(name)
        for value in ([given] if isinstance(given, str) else given or []):
            values.append({"kind": kind, "value": value, "iris": [base + value]})
    for dialect in slots.get("dialects") or []:
        values.append({"kind": "dialect", "value": dialect, "iris": list(_dialect_marks(dialect))})
    affixes = [a[1] for a in slots.get("affixes") or [] if len(a) == 2 and a[1]]
    if slots.get("definition_contains"):
        affixes.append(slots["definition_contains"])
    # one number when the reading's own query is one (a count per group is rows of numbers)
    form = "ask" if slots.get("yes_no") else "count" if outline(sparql) and is_count(sparql) else "rows"
    return {"form": form, "number": bool(slots.get("count")) and form != "ask", "words": words, "values": values,
            "affixes": affixes, "shows": [kind for flag, kind in SHOW_SLOTS if slots.get(flag)], "gaps": reading_gaps(reading),
            "language": slots.get("lang") or "it"}


def _dialect_marks(dialect: str) -> tuple[str, ...]:
    """What shows a query reads a dialect: its Lemma Bank or lexicon IRI, or its language tag (``@scn``)."""
    from ..patterns.vocab import DIALECT
    _, _, bank, lexicon, tag = DIALECT.get(dialect, (None, None, None, None, None))
    return tuple(m for m in (bank, lexicon, f"@{tag}" if tag else None) if m)


def reading_gaps(reading: dict) -> list[str]:
    """What the translator's reading says it could not read (empty: it read the whole question)."""
    slots = reading.get("slots") or {}
    steps = slots.get("plan") or []
    gaps = []
    if reading.get("source") == "example":
        gaps.append("the reader recognised nothing: the query of a similar example was borrowed")
    elif reading.get("source") == "adapted":
        gaps.append("no fact asked about the word was recognised: the facts of a similar example were borrowed")
    elif not steps:
        gaps.append("no fact asked about the named word was recognised" if slots.get("word") or slots.get("listed")
                    else "no constraint was recognised: the query would list every lemma")
    return gaps


def query_problems(expects: dict, sparql: str) -> list[str]:
    """What the query's text leaves out of the question (empty: its form, every word, value and affix are there)."""
    o = outline(sparql)
    if o is None:
        return ["not a SELECT or ASK query"]
    problems = []
    form = expects.get("form")
    if form == "ask" and o.form != "ask":
        problems.append("a yes/no question needs an ASK query (true/false), not rows")
    elif form != "ask" and o.form == "ask":
        problems.append("the question does not ask yes or no, but the query is an ASK")
    elif form == "count" and not is_count(sparql):
        problems.append("a how-many question needs a count, the query lists rows")
    strings, iris, tags = _literals(sparql)
    for named in expects.get("words") or []:
        if not any(_uses(strings, s) for s in named["spellings"]):
            problems.append(f"the word {named['word']!r} is used nowhere in the query")
    for value in expects.get("values") or []:
        if not any(mark in iris or mark in tags for mark in value["iris"]):
            problems.append(f"the {value['kind']} {value['value']!r} is used nowhere in the query")
    for affix in expects.get("affixes") or []:
        if not _uses(strings, affix):
            problems.append(f"{affix!r} is searched nowhere in the query")
    return problems


def _literals(sparql: str) -> tuple[list[str], set[str], set[str]]:
    """The query's string literals (folded), the IRIs it names (expanded) and its language tags."""
    prefixes = {**PREFIXES, **declared_prefixes(sparql)}
    strings, iris, tags = [], set(), set()
    tokens = tokenize(sparql)
    for prev, tok in zip([None, *tokens], tokens):
        if tok.kind == "string":
            strings.append(fold(tok.text[1:-1]))
        elif tok.kind == "langtag":
            tags.add(tok.text)
        elif not (prev is not None and prev.upper == "PREFIX"):
            iri = token_iri(tok, prefixes)
            if iri:
                iris.add(iri)
    return strings, iris, tags


def uses_value(sparql: str, value: str) -> bool:
    """True when a string literal of ``sparql`` is ``value`` or contains it (case and accents aside)."""
    return _uses(_literals(sparql)[0], value)


def _uses(strings: list[str], value: str) -> bool:
    """True when a string literal is ``value`` or contains it (case and accents aside)."""
    wanted = fold(value).strip("-")
    return bool(wanted) and any(wanted in s for s in strings)


def answer_problems(expects: dict, run: dict, lemmas: int | None = None, total: int | None = None) -> list[str]:
    """What is wrong with what a query returned, for the question (empty: the answer has the right type).

    ``run`` is :meth:`~nl2sparql.agent.context.AgentContext.run_query`'s record; ``lemmas`` is the
    number of lemmas of the KB and ``total`` the rows of the whole answer (more than ``run`` has when
    it was cut at the row cap): an answer with as many rows as the KB has lemmas lists them all.
    """
    if run.get("form") == "ask":
        return []
    columns, rows = run.get("columns") or [], run.get("rows") or 0
    problems = []
    if lemmas and (total or rows) >= lemmas:
        problems.append(f"the answer has {total or rows} rows: every lemma of the KB, nothing was narrowed")
    numeric = [i for i in range(len(columns)) if _numeric(run, i)]
    if expects.get("form") == "count" and not numeric:
        problems.append("a how-many question needs a number, the answer holds none")
    elif expects.get("number") and not numeric:
        problems.append("the question asks how many, the answer holds no number")
    elif expects.get("form") == "rows" and not expects.get("number") and rows == 1 and len(columns) == 1 \
            and numeric and not expects.get("gaps"):
        problems.append("the question asks for entities, the query returns one number")
    for kind in expects.get("shows") or []:
        if kind == "pairs" and len(columns) < 2:
            problems.append("the question asks for pairs (a word and its translation), the answer has one column")
        elif kind in ("emotion", "polarity") and not any(_holds(run, i, kind) for i in range(len(columns))):
            problems.append(f"the question asks for {kind} values, the answer shows none")
    return problems


def _numeric(run: dict, column: int) -> bool:
    """True when ``column`` of the preview rows holds numbers."""
    cells = [r[column] for r in run.get("preview") or [] if column < len(r) and r[column] is not None]
    if not cells:
        return False
    try:
        [float(c) for c in cells]
    except (TypeError, ValueError):
        return False
    return True


def _holds(run: dict, column: int, kind: str) -> bool:
    """True when ``column`` holds values of a vocabulary ``kind`` (their IRIs, or their names)."""
    from ..patterns.vocab import EMOTION, POLARITY
    from .query import vocabulary_value

    names = {"emotion": EMOTION, "polarity": POLARITY}[kind]
    known = {fold(n) for name, forms in names.items() for n in (name, *forms)}
    for row in run.get("preview") or []:
        cell = row[column] if column < len(row) else None
        if cell is None:
            continue
        found = vocabulary_value(cell)
        if (found and found[0] == kind) or fold(str(cell).rsplit("/", 1)[-1].rsplit("#", 1)[-1]) in known:
            return True
        try:
            float(cell)  # a polarity score
            return kind == "polarity"
        except (TypeError, ValueError):
            pass
    return False


def positive_query(sparql: str, limit: int = 20) -> str | None:
    """The rows an ASK stands for: ``SELECT * WHERE { … } LIMIT n`` (``None`` for anything but an ASK)."""
    o = outline(sparql)
    if o is None or o.form != "ask":
        return None
    body = sparql[o.tokens[o.where_open].start:o.tokens[o.where_close].start + 1]
    return f"{sparql[:o.prologue_end]}SELECT * WHERE {body} LIMIT {limit}\n"


def optional_only(sparql: str) -> set[str]:
    """Variables a query binds only inside OPTIONAL blocks (an ASK's "yes" never depends on them)."""
    tokens = tokenize(sparql)
    inside, outside = set(), set()
    depth_at: list[int] = []  # brace depths at which an OPTIONAL block opened
    depth, pending = 0, False
    for tok in tokens:
        if tok.upper == "OPTIONAL":
            pending = True
        elif tok.text == "{":
            depth += 1
            if pending:
                depth_at.append(depth)
                pending = False
        elif tok.text == "}":
            if depth_at and depth_at[-1] == depth:
                depth_at.pop()
            depth -= 1
        elif tok.kind == "var":
            (inside if depth_at else outside).add(tok.text[1:])
    return inside - outside


def yes_problems(sparql: str, positive: dict) -> list[str]:
    """Whether an ASK's "yes" is backed by the rows of its positive query: a fact asked in an OPTIONAL block
    must be bound in some row (else the "yes" says only that the word exists)."""
    asked = optional_only(sparql)
    if not asked or positive.get("error") is not None:
        return []
    columns = positive.get("columns") or []
    index = [columns.index(v) for v in asked if v in columns]
    if any(all(row[i] is not None for i in index) for row in positive.get("preview") or []):
        return []
    return ["the yes only says the word exists: the fact asked (" + ", ".join(f"?{v}" for v in sorted(asked))
            + ") is optional in the query and bound in no row"]
