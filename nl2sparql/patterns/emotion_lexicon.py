"""EMOTION_LEXICON: ELITA emotions of Italian lemmas."""

from __future__ import annotations

import random
import re

from ..folding import fold_same_length
from ..namespaces import ELITA_GRAPH
from ..sparql.model import IRI, Triple, Values
from .base import Facts, Frame, frag, pl, quote
from .pattern import Pattern
from .reading import ARTICLE, NAMED_HEAD, QUOTED, VALUE, Text, reads
from .vocab import ELITA, EMOTION, EMOTION_RES, SENTIMENT, local_name

#: Words that name the emotion layer in a question.
EMOTION_WORDS = rf"emozion\w*|emotions?|emotiv\w*|{SENTIMENT}|elita|elita:hasemotion|feelings?"
EMOTION_CUE = rf"\b(?:{EMOTION_WORDS})\b"
#: "the emotions of …", "quali emozioni …": the emotions are asked for, not given.
EMOTION_PROJECT = (r"\b(?:quali|which|what|le|the|sue|its|loro|their|associate|associated|con|with)\s+"
                   r"(?:[a-z]+\s+)?(?:emozion[ei]|emotions|elita)\b|\belita:hasemotion\b")
#: The noun before a quoted emotion name ("l'emozione «paura»").
EMOTION_NOUN = r"\b(?:emozion[ei]|emotions?|elita:)\s*"
#: A verb that takes emotions: the quoted names after it ("express both 'gioia' and 'tristezza'") are emotions.
#: Plural verbs only: in "Quali emozioni esprime «amore»?" the quoted word is the subject, not an emotion.
EMOTION_VERB = (r"\b(?:esprimono|evocano|trasmettono|suscitano|express|expressing|convey|conveying|evoke|evoking)\s+"
                r"(?:(?:sia|both|either|entrambe|l'emozione|the emotions?|le emozioni)\s+)?")


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
        # only the emotions: ELITA's elita:HasEmotion also points to its affective dimensions (Valenza, Dominanza)
        "emotion": "SELECT DISTINCT ?lemma ?emotion WHERE { ?e ontolex:canonicalForm ?lemma ; "
                   "elita:HasEmotion ?emotion . ?emotion a elita:Emotion . ?lemma a lila:Lemma }",
    }
    needs = ("emotion",)
    compose = {"constraint": 3, "word": 4}
    build_order = 3
    question_cues = [
        (rf"(?<![«\"'])\b(emozion\w*|emotion\w*|elita|{SENTIMENT}|esprim\w*|express\w*|convey\w*|evoc\w*)\b", 0.6),
        (r"(?<![«\"'])\b(" + "|".join([it for it, _ in EMOTION.values()] + [en for _, en in EMOTION.values()])
         + r")\b(?![»\"'])", 0.5),
    ]
    slot_fields = {"emotions": list, "emotion_project": False, "emotions_any": False}
    named_cues = (
        (11, rf"\b(?:quali|che) emozioni (?:esprime|evoca|suscita|trasmette|ha)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
        (12, rf"\b(?:what|which) (?:emotions?|feelings?) (?:does|do)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
    )
    fact_nouns = r"emozion[ei]|emotions?"
    requirable = True
    mention_cue = EMOTION_CUE

    @reads(30)
    def read_quoted_names(self, text: Text, slots) -> None:
        """«paura» after "emozione" / "emotion", or quoted after "esprime" / "express", names the emotion, not a lemma."""
        listed = rf"(?:\s*(?:,|and|e|or|o|oppure)\s*(?P<v2>{QUOTED}))*"
        for cue in (EMOTION_NOUN, EMOTION_VERB):
            for m in re.finditer(cue + VALUE + listed, text.folded):
                for value_m in re.finditer(QUOTED + r"|[a-z]+", text.folded[m.start("v"):m.end()]):
                    start = m.start("v") + value_m.start()
                    value = fold_same_length(text.original[start:m.start("v") + value_m.end()].strip("«»\"'"))
                    for name, regex in EMOTION_RES.items():
                        if regex.fullmatch(value) and name not in slots.emotions:
                            slots.emotions.append(name)
                            text.mask(start, m.start("v") + value_m.end())

    @reads(90)
    def read_names(self, text: Text, slots) -> None:
        """Emotion names and adjectives anywhere ("parole tristi", "words of fear"); else whether emotions are asked."""
        for name, regex in EMOTION_RES.items():
            m = regex.search(text.folded)
            if m and name not in slots.emotions:
                slots.emotions.append(name)
                text.mask(*m.span())
        if not slots.emotions and (text.has(EMOTION_PROJECT) or (slots.word and text.has(EMOTION_CUE))):
            slots.emotion_project = True
        if len(slots.emotions) >= 2:  # "paura o rabbia", "fear, anger or disgust": either one (not both)
            # what stands between the first and the last emotion named (not between other values read)
            folded = fold_same_length(slots.question)
            spans = sorted(m.span() for m in (EMOTION_RES[n].search(folded) for n in slots.emotions) if m)
            between = folded[spans[0][1]:spans[-1][0]] if len(spans) >= 2 else ""
            slots.emotions_any = bool(re.search(r"\b(?:o|or|oppure|ovvero)\b|,", between)) and not re.search(
                r"\b(?:e|and|sia|both|entramb\w*|contemporaneamente|insieme|allo stesso tempo|at once)\b", between)

    @reads(116)
    def read_any_emotion(self, text: Text, slots) -> None:
        """"Words that express an emotion (according to ELITA)": some emotion is required of them."""
        if not slots.emotions and re.search(
                r"\b(?:esprim\w*|evoc\w*|express\w*|convey\w*|associat\w* (?:a|with))\s+(?:una?|an?|some|any|qualche|"
                r"almeno un)\s*'?\s*(?:emozion\w*|emotions?)\b", fold_same_length(slots.question)):
            slots.emotion_project = False
            if self.label not in slots.required:
                slots.required.append(self.label)

    def constraint_steps(self, slots) -> list[dict]:
        # two or more emotions at once are an INTERSECTION; either of them ("paura o rabbia") is one block here
        if len(slots.emotions) >= 2 and slots.emotions_any:
            return [{"mode": "any", "emotions": list(slots.emotions)}]
        return [{"mode": "constraint", "emotion": emotion} for emotion in slots.emotions] if len(slots.emotions) == 1 else []

    def projection_steps(self, slots) -> list[dict]:
        # "which words have an emotion": required (the plan makes it a constraint), so asked for too
        asked = slots.emotion_project or (self.label in slots.required and not slots.emotions)
        return [{"mode": "project"}] if asked else []

    def word_steps(self, slots) -> list[dict]:
        return [{"mode": "project"}] if slots.emotion_project or slots.emotions else []

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        if shape == "word":
            return {"mode": "project"}
        if shape == "list" and rng.random() < 0.15:  # shown next to the lemmas, or required of them
            return {"mode": "project", "required": True} if rng.random() < 0.4 else {"mode": "project"}
        own = local_name(rng.choice(facts.by_lemma("emotion")[lemma])[0])
        if shape == "list" and own in EMOTION and rng.random() < 0.08:  # "paura o rabbia": either of two
            return {"mode": "any", "emotions": [own, rng.choice(sorted(set(EMOTION) - {own}))]}
        return {"mode": "constraint", "emotion": own}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        if slots.get("required"):  # any of the nine emotions (not the dimensions Valenza, Dominanza)
            return {lemma for lemma, rows in facts.by_lemma("emotion").items()
                    if any(local_name(r[0]) in EMOTION for r in rows)}
        if slots.get("mode") == "any":
            wanted = {ELITA + name for name in slots["emotions"]}
            return {lemma for lemma, rows in facts.by_lemma("emotion").items() if any(r[0] in wanted for r in rows)}
        if slots.get("mode") != "constraint":
            return None  # shown next to the lemmas: it narrows nothing
        emotion = ELITA + slots["emotion"]
        return {lemma for lemma, rows in facts.by_lemma("emotion").items() if any(r[0] == emotion for r in rows)}

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        if slots.get("mode") == "project" or frame.shape == "word":
            self._build_facet(frame, bool(slots.get("required")) and frame.shape == "list")
            return
        if slots.get("mode") == "any":
            self._build_any(frame, list(slots["emotions"]))
            return
        entry = frame.fresh("emotionEntry")
        frame.where.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma))
        name = slots["emotion"]
        it, en = EMOTION.get(name, (name.lower(), name.lower()))
        frame.where.add(Triple(entry, IRI.of("elita:HasEmotion"), IRI(ELITA + name)))
        frame.fragments.append(frag(
            "constraint",
            [f"esprimono {it}", f"sono associat{{a}} all'emozione {quote('it', it)}", f"evocano {it}"],
            [f"express {en}", f"are associated with the emotion {en}", f"convey {en}"],
            f"con una voce ELITA con elita:HasEmotion elita:{name}",
            f"with an ELITA entry with elita:HasEmotion elita:{name}"))
        frame.slot("emotion", name, it, en)
        frame.tag(self.label, 0.9)

    def _build_any(self, frame: Frame, names: list[str]) -> None:
        """Lemmas with any of the emotions, each shown with the emotion it has (one row per lemma and emotion)."""
        entry, emotion, label = frame.fresh("emotionEntry"), frame.fresh("emotion"), frame.fresh("emotionLabel")
        frame.where.add(Values(emotion, [IRI(ELITA + n) for n in names]),
                        Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                        Triple(entry, IRI.of("elita:HasEmotion"), emotion),
                        Triple(emotion, IRI.of("rdfs:label"), label))
        if frame.shape == "list":
            frame.project(label)
        words_it = [EMOTION.get(n, (n.lower(), n.lower()))[0] for n in names]
        words_en = [EMOTION.get(n, (n.lower(), n.lower()))[1] for n in names]
        either_it = ", ".join(words_it[:-1]) + " o " + words_it[-1]
        either_en = ", ".join(words_en[:-1]) + " or " + words_en[-1]
        tech = " ".join(f"elita:{n}" for n in names)
        frame.fragments.append(frag("constraint", [f"esprimono {either_it}", f"evocano {either_it}"],
                                    [f"express {either_en}", f"convey {either_en}"],
                                    f"con una voce ELITA con elita:HasEmotion tra {tech}",
                                    f"with an ELITA entry whose elita:HasEmotion is one of {tech}"))
        for name in names:
            frame.slot("emotion", name, *EMOTION.get(name, (name, name)))
        frame.tag(self.label, 0.9)

    def _build_facet(self, frame: Frame, required: bool = False) -> None:
        """The emotions, shown next to the lemmas (or told about a word), kept optional; ``required``: the lemmas
        must have one ("which words have an emotion in ELITA")."""
        facet = frame.facet(required)
        entry, emotion, label = frame.fresh("emotionEntry"), frame.fresh("emotion"), frame.fresh("emotionLabel")
        facet.group.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                        Triple(entry, IRI.of("elita:HasEmotion"), emotion),
                        Triple(emotion, IRI.of("rdfs:label"), label))
        if not required:
            frame.show(facet, label, "emotions")
        if frame.shape == "word":
            frame.fragments.append(frag("word_fact", pl("le emozioni"), pl("the emotions"),
                                        "le emozioni ELITA (elita:HasEmotion)", "the ELITA emotions (elita:HasEmotion)",
                                        ask=(["Quali emozioni esprime {w}?", "Che emozioni evoca {w}?"],
                                             ["Which emotions does {w} convey?", "What emotions does {w} express?"]),
                                        ling=(pl("le emozioni associate in ELITA"), pl("the emotions ELITA associates"))))
            frame.tag(self.label, 0.9)
        elif frame.shape == "count" or required:
            frame.fragments.append(frag("constraint", ["hanno un'emozione in ELITA", "esprimono un'emozione secondo ELITA"],
                                        ["have an emotion in ELITA", "express an emotion according to ELITA"],
                                        "con una voce ELITA con elita:HasEmotion", "with an ELITA entry with elita:HasEmotion"))
            frame.tag(self.label, 0.9)
        else:
            frame.fragments.append(frag("projection", [pl("le emozioni che esprimono"), pl("le loro emozioni")],
                                        [pl("the emotions they convey"), pl("their emotions")],
                                        "le loro emozioni ELITA (elita:HasEmotion)",
                                        "their ELITA emotions (elita:HasEmotion)"))
            frame.tag(self.label, 0.7)

    def sparql_weight(self, f) -> float:
        if f.uses("elita:HasEmotion") or f.uses_iri_prefix(ELITA):
            return 0.9
        if ELITA_GRAPH in f.graphs:  # the ELITA graph IRI has no trailing slash
            return 0.8
        return 0.0


PATTERN = EmotionLexicon()
