"""EMOTION_LEXICON: ELITA emotions of Italian lemmas."""

from __future__ import annotations

import random

from ..namespaces import ELITA_GRAPH
from ..sparql.model import IRI, Triple
from .base import Facts, Frame, Pattern, frag, quote
from .vocab import ELITA, EMOTION, local_name


class EmotionLexicon(Pattern):
    """``?entry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura`` (or project the emotion)."""

    label = "EMOTION_LEXICON"
    rank = 10
    guidance = (f"ELITA emotions: ?emotionEntry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura (emotions "
                f"{', '.join('elita:' + name for name in EMOTION)}; their labels are Italian, capitalised).")
    example = ("list", None, {"mode": "constraint", "emotion": "Paura"})
    resource = "ELITA"
    entry_properties = ("elita:HasEmotion", "marl:Polarity")
    fact_queries = {
        "emotion": "SELECT DISTINCT ?lemma ?emotion WHERE { ?e ontolex:canonicalForm ?lemma ; "
                   "elita:HasEmotion ?emotion . ?lemma a lila:Lemma }",
    }
    needs = ("emotion",)
    question_cues = [
        (r"(?<![«\"'])\b(emozion\w*|emotion\w*|elita|sentiment\w*|esprim\w*|express\w*|convey\w*|evoc\w*)\b", 0.6),
        (r"(?<![«\"'])\b(gioia|tristezza|paura|disgusto|rabbia|sorpresa|aspettativa|fiducia|amore|joy|sadness|fear"
         r"|disgust|anger|surprise|anticipation|trust|love)\b(?![»\"'])", 0.5),
    ]

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        if shape == "word" or (shape == "list" and rng.random() < 0.2):
            return {"mode": "project"}
        return {"mode": "constraint", "emotion": local_name(rng.choice(facts.by_lemma("emotion")[lemma])[0])}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        if slots.get("mode") != "constraint":
            return facts.lemmas("emotion")
        emotion = ELITA + slots["emotion"]
        return {lemma for lemma, rows in facts.by_lemma("emotion").items() if any(r[0] == emotion for r in rows)}

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        entry = frame.fresh("emotionEntry")
        frame.where.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma))
        if slots.get("mode") == "project" or frame.shape == "word":
            emotion, label = frame.fresh("emotion"), frame.fresh("emotionLabel")
            frame.where.add(Triple(entry, IRI.of("elita:HasEmotion"), emotion),
                            Triple(emotion, IRI.of("rdfs:label"), label))
            frame.project(label)
            kind = "word_fact" if frame.shape == "word" else "projection"
            frame.fragments.append(frag(kind, ["le emozioni associate", "le emozioni che esprime"
                                               if kind == "word_fact" else "le emozioni che esprimono"],
                                        ["the associated emotions", "the emotions it conveys"
                                         if kind == "word_fact" else "the emotions they convey"],
                                        "le emozioni (elita:HasEmotion) collegate in ELITA",
                                        "the ELITA emotions (elita:HasEmotion)"))
            frame.tag(self.label, 0.9 if kind == "word_fact" else 0.7)
            return
        name = slots["emotion"]
        it, en = EMOTION.get(name, (name.lower(), name.lower()))
        frame.where.add(Triple(entry, IRI.of("elita:HasEmotion"), IRI(ELITA + name)))
        frame.fragments.append(frag(
            "constraint",
            [f"esprimono {it}", f"sono associati all'emozione {quote('it', it)}", f"evocano {it}"],
            [f"express {en}", f"are associated with the emotion {en}", f"convey {en}"],
            f"con una voce ELITA (elita:HasEmotion elita:{name})",
            f"with an ELITA entry (elita:HasEmotion elita:{name})"))
        frame.slot("emotion", name, it, en)
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses("elita:HasEmotion") or f.uses_iri_prefix(ELITA):
            return 0.9
        if ELITA_GRAPH in f.graphs:  # the ELITA graph IRI has no trailing slash
            return 0.8
        return 0.0


PATTERN = EmotionLexicon()
