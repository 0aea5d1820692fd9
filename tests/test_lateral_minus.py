"""lateral_minus: MINUS run as a per-solution lookup only where the answers are those of the MINUS."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from nl2sparql.kb.workers import run_on_store, to_term
from nl2sparql.paths import pools_dir
from nl2sparql.sparql.model import unordered_list
from nl2sparql.sparql.rewrite import lateral_minus

P = """PREFIX lila: <http://lila-erc.eu/ontologies/lila/>
PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
PREFIX vartrans: <http://www.w3.org/ns/lemon/vartrans#>
PREFIX dcterms: <http://purl.org/dc/terms/>
"""
SICILIAN = """{
    ?e ontolex:canonicalForm ?lemma .
    ?e vartrans:translatableAs ?d .
    ?d ontolex:canonicalForm ?dl .
    ?dl dcterms:isPartOf <http://liita.it/data/id/DialettoSiciliano/lemma/LemmaBank> .
  }"""
# lemmas without a Sicilian translation: the whole answer depends on the MINUS
ABSENCE = P + "SELECT ?lemma ?wr WHERE {\n  ?lemma a lila:Lemma .\n  ?lemma ontolex:writtenRep ?wr .\n  MINUS " \
    + SICILIAN + "\n}"


def answers(store, query: str) -> tuple[list[str], Counter]:
    """The variables and the multiset of rows the store gives for ``query``, as written."""
    result = store.query(query)
    names = [v.value for v in result.variables]
    return names, Counter(tuple(to_term(s[i]) for i in range(len(names))) for s in result)


def test_the_rewrite_text():
    text = lateral_minus(ABSENCE)
    assert "MINUS" not in text
    assert text.endswith("  LATERAL { OPTIONAL {\n    ?e ontolex:canonicalForm ?lemma .\n"
                         "    ?e vartrans:translatableAs ?d .\n    ?d ontolex:canonicalForm ?dl .\n"
                         "    ?dl dcterms:isPartOf <http://liita.it/data/id/DialettoSiciliano/lemma/LemmaBank> .\n"
                         "  } FILTER(!BOUND(?e)) }\n}")


def test_same_answers_on_the_sample(sample_kb):
    store = sample_kb.store
    before = answers(store, ABSENCE)
    every = answers(store, ABSENCE.split("  MINUS")[0] + "}")
    assert 0 < sum(before[1].values()) < sum(every[1].values())  # the MINUS removes some lemmas, not all
    assert answers(store, lateral_minus(ABSENCE)) == before


@pytest.mark.parametrize("query", [
    # MINUS in the middle of its group, triples after it, no DISTINCT (duplicates count)
    P + "SELECT ?wr WHERE { ?lemma a lila:Lemma . MINUS " + SICILIAN + " ?lemma ontolex:writtenRep ?wr . "
        "?x ontolex:canonicalForm ?lemma }",
    # inside an OPTIONAL group, its shared variable bound in that group
    P + "SELECT ?l ?lemma WHERE { ?l a lila:Lemma OPTIONAL { ?l ontolex:writtenRep ?w . "
        "?x ontolex:canonicalForm ?l . ?x ontolex:canonicalForm ?lemma MINUS " + SICILIAN + " } }",
    # two MINUS in one group, the first sharing two variables
    P + "SELECT ?lemma WHERE { ?e0 ontolex:canonicalForm ?lemma . ?e0 vartrans:translatableAs ?d0 . MINUS "
        "{ ?e0 vartrans:translatableAs ?d0 . ?d0 ontolex:canonicalForm ?z . ?z dcterms:isPartOf "
        "<http://liita.it/data/id/DialettoParmigiano/lemma/LemmaBank> } "
        "MINUS { ?em ontolex:canonicalForm ?lemma . ?em <http://w3id.org/elita/HasEmotion> ?v } }",
])
def test_same_answers_for_other_placements(sample_kb, query):
    rewritten = lateral_minus(query)
    assert answers(sample_kb.store, query)[1]  # not an empty answer (each MINUS removes some rows, see above)
    assert rewritten.count("FILTER(!BOUND(") == query.count("MINUS")
    assert answers(sample_kb.store, rewritten) == answers(sample_kb.store, query)


@pytest.mark.parametrize("why, query", [
    ("no shared variable: MINUS removes nothing",
     P + "SELECT ?wr WHERE { ?lemma ontolex:writtenRep ?wr MINUS { ?x ontolex:canonicalForm ?y } }"),
    ("the shared variable is bound only in an OPTIONAL",
     P + "SELECT ?wr WHERE { ?z ontolex:writtenRep ?wr OPTIONAL { ?lemma ontolex:writtenRep ?wr } MINUS "
         + SICILIAN + " }"),
    ("the shared variable is bound only after the MINUS",
     P + "SELECT ?wr WHERE { ?z ontolex:writtenRep ?wr MINUS " + SICILIAN + " ?lemma ontolex:writtenRep ?wr }"),
    ("a FILTER in the MINUS block",
     P + "SELECT ?wr WHERE { ?lemma ontolex:writtenRep ?wr MINUS { ?e ontolex:canonicalForm ?lemma "
         "FILTER(isIRI(?e)) } }"),
    ("a variable of the block is projected",
     P + "SELECT ?wr ?e WHERE { ?lemma ontolex:writtenRep ?wr MINUS { ?e ontolex:canonicalForm ?lemma } }"),
    ("every variable of the block is shared: nothing marks a match",
     P + "SELECT ?wr WHERE { ?lemma ontolex:writtenRep ?wr MINUS { ?lemma a lila:Lemma } }"),
    ("SELECT * would list the block's variables",
     P + "SELECT * WHERE { ?lemma ontolex:writtenRep ?wr MINUS " + SICILIAN + " }"),
    ("the shared variable comes from VALUES (it may be UNDEF)",
     P + "SELECT ?wr WHERE { VALUES ?lemma { UNDEF } ?z ontolex:writtenRep ?wr MINUS " + SICILIAN + " }"),
])
def test_left_as_written_when_unsure(sample_kb, why, query):
    assert lateral_minus(query) == query, why
    run_on_store(sample_kb.store, query, "select", None, 10_000)  # and it still runs


def test_the_guard_matters(sample_kb):
    """Without a shared variable the lookup form would remove every row that MINUS keeps."""
    query = P + "SELECT ?wr WHERE { ?lemma ontolex:writtenRep ?wr MINUS { ?x ontolex:canonicalForm ?y } }"
    forced = query.replace("MINUS { ?x ontolex:canonicalForm ?y }",
                           "LATERAL { OPTIONAL { ?x ontolex:canonicalForm ?y } FILTER(!BOUND(?x)) }")
    kept = answers(sample_kb.store, query)[1]
    assert kept and answers(sample_kb.store, forced)[1] != kept
    assert lateral_minus(query) == query


def test_strings_and_iris_are_not_read_as_minus():
    query = P + 'SELECT ?wr WHERE { ?lemma ontolex:writtenRep ?wr FILTER(?wr != "MINUS { ?e ?p ?lemma }") }'
    assert lateral_minus(query) == query


def test_the_shipped_pool_runs_the_same(sample_kb):
    """Every MINUS query of the shipped pool is rewritten and gives the same rows through run_on_store."""
    lines = (pools_dir() / "sample_pool.jsonl").read_text(encoding="utf-8").splitlines()
    queries = [sample_kb.prepare(json.loads(line)["sparql"]) for line in lines if "MINUS" in line]
    assert len(queries) > 20
    for query in queries:
        assert lateral_minus(query) != query
        table = run_on_store(sample_kb.store, query, "select", None, 100_000)
        names, rows = answers(sample_kb.store, query)
        # a GROUP_CONCAT list is a set: its order is the engine's choice, and a rewrite may change it
        assert (names, _as_sets(rows)) == (table.variables, _as_sets(Counter(table.rows)))


def _as_sets(rows: Counter) -> Counter:
    def cell(term):
        value = getattr(term, "value", None)
        return unordered_list(value) if isinstance(value, str) else term
    out = Counter()
    for row, n in rows.items():
        out[tuple(cell(t) for t in row)] += n
    return out
