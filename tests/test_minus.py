"""MINUS in the query model: written last in its group, the same answers as FILTER NOT EXISTS for an absence."""

from __future__ import annotations

from nl2sparql.sparql.model import IRI, Group, Minus, Select, Triple, Var, render


def _absence(element) -> Select:
    """Lemmas without a Sicilian translation, the absence added BEFORE the triples that bind ?lemma."""
    lemma, entry, d_entry, d_lemma = Var("lemma"), Var("e"), Var("d"), Var("dl")
    block = Group([Triple(entry, IRI.of("ontolex:canonicalForm"), lemma),
                   Triple(entry, IRI.of("vartrans:translatableAs"), d_entry),
                   Triple(d_entry, IRI.of("ontolex:canonicalForm"), d_lemma),
                   Triple(d_lemma, IRI.of("dcterms:isPartOf"),
                          IRI("http://liita.it/data/id/DialettoSiciliano/lemma/LemmaBank"))])
    where = Group([element(block), Triple(lemma, IRI.of("rdf:type"), IRI.of("lila:Lemma"))])
    return Select([lemma], where, distinct=True)


def test_minus_is_written_last_in_its_group():
    text = render(_absence(Minus))
    assert text.index("MINUS {") > text.index("rdf:type lila:Lemma")


def test_minus_answers_as_filter_not_exists_on_the_sample(sample_kb):
    not_exists = render(_absence(Minus)).replace("MINUS {", "FILTER NOT EXISTS {")
    lacking = {r[0].value for r in sample_kb.select(not_exists).rows}
    minus = {r[0].value for r in sample_kb.select(render(_absence(Minus))).rows}
    every = {r[0].value for r in sample_kb.select(
        "PREFIX lila: <http://lila-erc.eu/ontologies/lila/> SELECT DISTINCT ?l WHERE { ?l a lila:Lemma }").rows}
    assert minus == lacking and 0 < len(lacking) < len(every)  # some lemmas have a Sicilian translation
