"""POLARITY: Sentix polarity of Italian lemmas (a separate entry from ELITA's)."""

from __future__ import annotations

import random
import re

from ..sparql.model import IRI, Filter, Lit, Op, Triple
from .base import Facts, Frame, frag, sg
from .pattern import Pattern
from ..folding import fold_same_length
from .reading import HEADS, NUMBER, Text, reads
from .vocab import MARL, POLARITY, SENTIMENT, local_name

#: Words that name the Sentix layer.
POLARITY_WORDS = rf"polarita|polarity|sentix|{SENTIMENT}|marl:haspolarity\w*"
#: Words that speak of a rating, read as polarity only in a polarity question.
RATING_WORDS = r"rated|valutat\w*|classificat\w*|connotazion\w*|connotation"
POLARITY_CUE = rf"\b(?:{POLARITY_WORDS}|{RATING_WORDS})\b"
#: Polarity class local name → the folded adjectives naming it.
CLASS_WORDS = (("Positive", r"positiv[aeio]|positive"), ("Negative", r"negativ[aeio]|negative"),
               ("Neutral", r"neutr[aeio]|neutral"))
THRESHOLD = (rf"(?P<op>superior\w*|maggior\w*|piu alt\w*|sopra|oltre|above|greater|higher|more|over|>=?|"
             rf"inferior\w*|minor\w*|piu bass\w*|sotto|below|less|lower|under|<=?)\s*(?:a|di|than|to|of|=)?\s*{NUMBER}")
_BELOW = r"inferior|minor|piu bass|sotto|below|less|lower|under|<"


#: The polarity of ELITA, not Sentix ("la polarità secondo ELITA", "ELITA's polarity of …").
ELITA_POLARITY = r"\belita\W+(?:\w+\W+){0,2}?polarit|\bpolarit\w*\W+(?:\w+\W+){0,3}?elita\b"
#: A request for the Sentix value itself next to a polarity class ("con il loro punteggio", "with their score").
SCORE_CUE = r"\b(?:punteggi[oi]|valor[ei] di polarita|scores?|polarity values?)\b"


class Polarity(Pattern):
    """``?sentix ontolex:canonicalForm ?lemma ; marl:hasPolarity marl:Negative ; marl:hasPolarityValue ?polarity``."""

    label = "POLARITY"
    rank = 20
    guidance = ("Sentix polarity is a separate entry: ?sentixEntry ontolex:canonicalForm ?lemma ; marl:hasPolarity "
                f"{'|'.join('marl:' + name for name in POLARITY)} ; marl:hasPolarityValue ?value (-1..1).")
    example = ("list", None, {"polarity": "Negative"})
    resource = "Sentix"
    entry_properties = ("marl:hasPolarity",)
    fact_queries = {
        "sentix": "SELECT DISTINCT ?lemma ?polarity ?value WHERE { ?s ontolex:canonicalForm ?lemma ; "
                  "marl:hasPolarity ?polarity ; marl:hasPolarityValue ?value . ?lemma a lila:Lemma }",
    }
    needs = ("sentix",)
    compose = {"constraint": 4, "word": 5}
    build_order = 4
    question_cues = [
        (rf"(?<![«\"'])\b({POLARITY_WORDS})\b", 0.9),  # not a quoted lemma such as «sentimento»
        (r"\b(" + "|".join(words for _, words in CLASS_WORDS) + r")\b", 0.6),
    ]
    slot_fields = {"polarity": None, "threshold": None, "threshold_op": None, "polarity_project": False,
                   "polarity_value": False, "polarity_source": None}
    fact_nouns = rf"polarita|polarity|{SENTIMENT}"
    requirable = True
    mention_cue = POLARITY_CUE

    @reads(22)
    def read_threshold(self, text: Text, slots) -> None:
        """A polarity above or below a number ("polarità superiore a 0,5")."""
        if text.has(POLARITY_CUE):
            m = text.search(THRESHOLD)
            if m:
                slots.threshold_op = "<" if re.match(_BELOW, m.group("op")) else ">"
                slots.threshold = float(m.group("n").replace(",", "."))
                text.mask(*m.span())

    @reads(104)
    def read_class(self, text: Text, slots) -> None:
        """A polarity class, in a polarity question or next to a head noun ("parole positive")."""
        for name, words in CLASS_WORDS:
            m = re.search(rf"\b(?:{words})\b", text.folded)
            if m and (text.has(POLARITY_CUE) or re.search(rf"\b{HEADS}\s+(?:{words})\b|\b(?:{words})\s+{HEADS}",
                                                          text.folded)):
                slots.polarity = name
                break

    @reads(119)
    def read_request(self, text: Text, slots) -> None:
        """A polarity question that names no class nor threshold asks for the polarity; "the ELITA polarity" is
        ELITA's own (marl:Polarity on its entry), not Sentix's."""
        if text.asks(POLARITY_CUE) and slots.polarity is None and slots.threshold is None:
            slots.polarity_project = True
        elif text.asks(SCORE_CUE):  # "gli aggettivi positivi con il loro punteggio": the value next to the class
            slots.polarity_value = True
        if slots.polarity_project and re.search(ELITA_POLARITY, fold_same_length(slots.question)):
            slots.polarity_source = "elita"
            slots.emotion_project = False  # "elita" named the resource, not the emotions

    def constraint_steps(self, slots) -> list[dict]:
        if slots.threshold is not None:
            sign = 1 if slots.threshold_op == ">" else -1
            step = {"polarity": "Positive" if sign > 0 else "Negative", "threshold": sign * slots.threshold}
        elif slots.polarity:
            step = {"polarity": slots.polarity}
        else:
            return []
        return [{**step, "value": True} if slots.polarity_value else step]

    def projection_steps(self, slots) -> list[dict]:
        return [self._source(slots)] if slots.polarity_project else []

    def word_steps(self, slots) -> list[dict]:
        return [self._source(slots)] if slots.polarity_project or slots.polarity or slots.threshold is not None else []

    @staticmethod
    def _source(slots) -> dict:
        return {"source": "elita"} if slots.polarity_source == "elita" else {}

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        polarity_iri, value = rng.choice(facts.by_lemma("sentix")[lemma])
        value, name = float(value), local_name(polarity_iri)
        slots = {"polarity": name}
        if shape != "word" and name in ("Positive", "Negative") and abs(value) >= 0.3 and rng.random() < 0.4:
            slots["threshold"] = round(abs(value) - 0.05, 1)
        return slots

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        name, threshold = slots.get("polarity"), slots.get("threshold")
        if slots.get("required") and name is None:
            return set(facts.by_lemma("sentix"))
        if name is None and threshold is None:
            return None  # shown next to the lemmas: it narrows nothing
        out = set()
        for lemma, rows in facts.by_lemma("sentix").items():
            for iri, value in rows:
                if threshold is not None:
                    ok = float(value) > threshold if name == "Positive" else float(value) < -threshold
                else:
                    ok = iri == MARL + name
                if ok:
                    out.add(lemma)
        return out

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        name = slots.get("polarity")
        if slots.get("source") == "elita":
            self._build_elita(frame)
            return
        if frame.shape == "word" or name is None:
            self._build_facet(frame, bool(slots.get("required")) and frame.shape == "list")
            return
        entry = frame.fresh("sentixEntry")
        frame.where.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma))
        threshold = slots.get("threshold")
        if threshold is not None:
            score = frame.fresh("polarity")
            op, lit = (">", threshold) if name == "Positive" else ("<", -threshold)
            # marl:hasPolarity keeps the entry a Sentix one: ELITA entries carry marl:hasPolarityValue too
            frame.where.add(Triple(entry, IRI.of("marl:hasPolarityValue"), score),
                            Triple(entry, IRI.of("marl:hasPolarity"), frame.fresh("polarityClass")),
                            Filter(Op(op, (score, Lit(lit)))))
            it_lit, en_lit = str(lit).replace(".", ","), str(lit)
            it = f"hanno una polarità Sentix {'superiore' if op == '>' else 'inferiore'} a {it_lit}"
            en = f"have a Sentix polarity {'above' if op == '>' else 'below'} {en_lit}"
            frame.fragments.append(frag("constraint", it, en,
                                        f"con una voce Sentix con marl:hasPolarityValue {op} {lit}",
                                        f"with a Sentix entry with marl:hasPolarityValue {op} {lit}"))
            frame.slot("threshold", str(lit), it_lit, en_lit)
        else:
            frame.where.add(Triple(entry, IRI.of("marl:hasPolarity"), IRI(MARL + name)))
            if slots.get("value") and frame.shape == "list":
                score = frame.fresh("polarity")
                frame.where.add(Triple(entry, IRI.of("marl:hasPolarityValue"), score))
            it_adj, en_adj = POLARITY[name]
            frame.fragments.append(frag(
                "constraint", [f"hanno polarità {it_adj} secondo Sentix", f"hanno una polarità {it_adj} in Sentix"],
                [f"have {en_adj} polarity in Sentix", f"are rated {en_adj} by Sentix"],
                f"con una voce Sentix con marl:hasPolarity marl:{name}",
                f"with a Sentix entry with marl:hasPolarity marl:{name}"))
            frame.slot("polarity", name, it_adj, en_adj)
        if slots.get("value") and frame.shape == "list":  # the value the entry that meets the class has
            frame.project(score)
        frame.tag(self.label, 0.9)

    def _build_elita(self, frame: Frame) -> None:
        """ELITA's own polarity of its entry: the class as written (``marl:Polarity "Positive"``) and the value."""
        facet = frame.facet()
        entry, cls, score = frame.fresh("elitaEntry"), frame.fresh("elitaPolarity"), frame.fresh("elitaPolarityValue")
        facet.group.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                        Triple(entry, IRI.of("marl:Polarity"), cls),
                        Triple(entry, IRI.of("marl:hasPolarityValue"), score))
        frame.show(facet, cls, "elitaPolarities")
        frame.show(facet, score, "elitaPolarityValues")
        kind = "word_fact" if frame.shape == "word" else "projection"
        frame.fragments.append(frag(kind, [sg("la polarità secondo ELITA"), sg("la polarità ELITA")],
                                    [sg("the ELITA polarity"), sg("the polarity according to ELITA")],
                                    "la polarità della voce ELITA (marl:Polarity, marl:hasPolarityValue)",
                                    "the polarity of the ELITA entry (marl:Polarity, marl:hasPolarityValue)",
                                    ask=(["Che polarità ha {w} secondo ELITA?"], ["What polarity does ELITA give {w}?"])))
        frame.tag(self.label, 0.9)
        frame.tag("EMOTION_LEXICON", 0.6)

    def _build_facet(self, frame: Frame, required: bool = False) -> None:
        """The Sentix polarity (class and value), shown next to the lemmas or told about a word, kept optional;
        ``required``: the lemmas must have one ("which words have a Sentix polarity")."""
        facet = frame.facet(required)
        entry, score = frame.fresh("sentixEntry"), frame.fresh("polarity")
        cls, cls_label = frame.fresh("polarityClass"), frame.fresh("polarityLabel")
        facet.group.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                        Triple(entry, IRI.of("marl:hasPolarity"), cls),
                        Triple(cls, IRI.of("rdfs:label"), cls_label),
                        Triple(entry, IRI.of("marl:hasPolarityValue"), score))
        if frame.shape == "count" or required:
            frame.fragments.append(frag("constraint", ["hanno una polarità in Sentix", "sono valutat{a} da Sentix"],
                                        ["have a polarity in Sentix", "are rated by Sentix"],
                                        "con una voce Sentix (marl:hasPolarity)", "with a Sentix entry (marl:hasPolarity)"))
        elif frame.shape == "word":
            frame.show(facet, cls_label, "polarityLabels")
            frame.show(facet, score, "polarityValues")
            frame.fragments.append(frag("word_fact", [sg("la polarità secondo Sentix"), sg("la polarità Sentix")],
                                        [sg("the Sentix polarity"), sg("the polarity according to Sentix")],
                                        "la polarità Sentix (marl:hasPolarity, marl:hasPolarityValue)",
                                        "the Sentix polarity (marl:hasPolarity, marl:hasPolarityValue)",
                                        ask=(["Che polarità ha {w} secondo Sentix?"],
                                             ["What polarity does Sentix give {w}?"])))
        else:
            frame.show(facet, cls_label, "polarityLabels")
            frame.show(facet, score, "polarityValues")
            frame.fragments.append(frag("projection", [sg("la loro polarità secondo Sentix"), sg("la polarità Sentix")],
                                        [sg("their Sentix polarity"), sg("the polarity Sentix gives them")],
                                        "la polarità Sentix (marl:hasPolarity, marl:hasPolarityValue)",
                                        "the Sentix polarity (marl:hasPolarity, marl:hasPolarityValue)"))
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses("marl:hasPolarity") or f.uses_any("marl:Positive", "marl:Negative", "marl:Neutral"):
            return 0.9
        if f.uses("marl:hasPolarityValue") or f.uses("marl:Polarity"):
            return 0.7
        return 0.0


PATTERN = Polarity()
