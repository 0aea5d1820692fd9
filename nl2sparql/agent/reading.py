"""What a question asks the answer to look like: its form, the words it names, whether IRIs are wanted.

:func:`expectations` reads the question next to the catalogue's analysis
(:func:`nl2sparql.service.analyze`) and returns plain data:

* ``form``: ``ask`` (a yes/no question), ``count`` (how many), ``list``
  (entities matching constraints), ``word`` (facts about a named word) or
  ``standalone`` (graph listings, class counts);
* ``wants_iri``: the question asks for identifiers (IRI, URI, resource, id);
  otherwise the answer shows written forms and values, not IRIs;
* ``asks_words``: it asks for words ("quali parole", "which nouns"), not facts;
* ``shows_more``: it asks to see values next to the words ("e la loro
  definizione", "with their score"), so the columns that echo a condition stay;
* ``words``: the words the question names (quoted or read by the slots);
* ``facts``: the pattern labels of the first reading, in order.

:func:`agreement` compares those expectations with what a query returned.
"""

from __future__ import annotations

import re

from ..translate.text import fold

_EN_AUX = r"(?:is|are|does|do|did|can|could|has|have|was|were|will|should|may)"
_EN_YES_NO = re.compile(rf"^\s*(?:and\s+|so\s+|tell me\s+)?{_EN_AUX}\b(?!\s+(?:there\s+)?(?:any|some)\b.*\bhow\b)")
_IT_QUESTION_WORD = re.compile(
    r"\b(?:chi|che|cosa|cos|quale|quali|qual|quanto|quanta|quanti|quante|come|dove|quando|perche|"
    r"elenca|elencami|mostra|mostrami|dammi|dimmi|trova|cerca|indica|indicami|fornisci|restituisci|"
    r"lista|elenco|scrivi|visualizza|riporta|conta|calcola)\b")
_IT_YES_NO_VERB = re.compile(r"\b(?:e|sono|ha|hanno|esiste|esistono|c|ci sono|puo|possono|appartiene|"
                             r"appartengono|contiene|compare|compaiono|figura|risulta|vero)\b")
_INDIRECT_YES_NO = re.compile(r"\b(?:dimmi|sai|sapresti dirmi|verifica|controlla|chiedo)\s+se\b|"
                              r"\b(?:tell me|check|verify|know)\s+(?:if|whether)\b")
_EN_QUESTION_WORD = re.compile(r"^\s*(?:what|which|who|whom|whose|how|where|when|why|list|show|give|find|name|"
                               r"tell|count|return|get|display)\b")
_COUNT = re.compile(r"\b(?:quant[ieoa]|how many|numero(?: totale)? di|number of)\b")
_WORDS = re.compile(r"\b(?:quali|quale|elenca\w*|mostra\w*|dammi|trova\w*|tutte le|which|what|list|show|give|find|"
                    r"all the)\b(?:\s+\w+){0,3}?\s+(?:parol[ae]|lemmi|sostantivi|nomi|aggettivi|verbi|avverbi|voci|"
                    r"termini|words?|lemmas|nouns|adjectives|verbs|adverbs|entries|terms)\b")
_SHOW_MORE = re.compile(r"\b(?:con|e|insieme a|assieme a)\s+(?:il|la|i|le|lo|gli)?\s*(?:loro|sua|suo|relativ[aeio])\b|"
                        r"\b(?:and|with|along with|together with)\s+(?:their|its|the)\b|\bpunteggi\w*|"
                        r"\bvalor[ei]\b|\bscores?\b|\bvalues?\b|\banche\b|\balso show\b")
_IRI_CUES = re.compile(r"\b(?:iri|uri|url|identificativ[oi]|identifier|ids?|risors[ae]|resources?|"
                       r"link|nod[oi]|nodes?)\b")


def is_yes_no(question: str) -> bool:
    """True for a yes/no question ("Is X a noun?", "«gatto» è un sostantivo?", "Esiste la parola X?")."""
    text = fold(question).strip()
    if _INDIRECT_YES_NO.search(text):
        return True
    if _EN_YES_NO.search(text) and not _EN_QUESTION_WORD.search(text):
        return True
    if _EN_QUESTION_WORD.search(text) or not text.endswith("?"):
        return False
    words = re.sub(r"[«»\"'“”‘’]", " ", text)
    opening = " ".join(words.split()[:3])  # interrogatives open the question ("di quale", "in che")
    return not _IT_QUESTION_WORD.search(opening) and bool(_IT_YES_NO_VERB.search(words))


def expectations(question: str, analysis: dict) -> dict:
    """The expectations of ``question`` given its catalogue ``analysis`` (see the module docstring)."""
    slots = analysis.get("slots") or {}
    shape = analysis.get("shape") or "list"
    readings = analysis.get("readings") or [{}]
    facts = [s.get("pattern") for s in readings[0].get("steps") or []]
    if readings[0].get("standalone"):
        facts = [readings[0]["standalone"].get("label")]
    words = []
    for key in ("word", "relation_target", "translation_target"):
        value = slots.get(key)
        if value and value not in words:
            words.append(value)
    for value in slots.get("quoted") or []:
        if value and value not in words:
            words.append(value)
    folded = fold(question)
    form = "ask" if is_yes_no(question) else "count" if shape == "count" or _COUNT.search(folded) else shape
    return {"form": form, "shape": shape, "wants_iri": bool(_IRI_CUES.search(folded)),
            "asks_words": bool(_WORDS.search(folded)), "shows_more": bool(_SHOW_MORE.search(folded)),
            "words": words, "facts": [f for f in facts if f], "language": analysis.get("language", "it")}


def agreement(expects: dict, run: dict, subjects: set[str] | None = None) -> list[str]:
    """What disagrees between the expectations and a successful run (empty: it agrees).

    ``subjects`` are the query's variables that are triple subjects (IRIs by construction).
    """
    problems = []
    form = expects.get("form")
    columns, kinds = run.get("columns") or [], run.get("kinds") or []
    if form == "ask":
        if run.get("form") != "ask":
            problems.append("a yes/no question needs an ASK query (true/false), not rows")
        return problems
    if run.get("form") == "ask":
        problems.append("the question does not ask yes/no, but the query is an ASK")
        return problems
    if form == "count":
        one_number = run.get("rows") == 1 and len(columns) == 1 and _numeric(run)
        if not one_number and not (len(columns) >= 2 and _numeric(run, last=True)):
            problems.append("a how-many question needs a count, the query lists rows")
    elif form in ("list", "word") and run.get("rows") == 1 and len(columns) == 1 and _numeric(run) \
            and "COUNT_ENTITIES" not in expects.get("facts", []) and "SENSE_COUNT" not in expects.get("facts", []):
        problems.append("the question asks for entities, the query returns one number")
    if not expects.get("wants_iri") and len(columns) > 1:
        iri_columns = [c for c, k in zip(columns, kinds) if k == "uri" and (subjects is None or c in subjects)]
        if iri_columns and len(iri_columns) < len(columns):
            problems.append("IRI column(s) nobody asked for: " + ", ".join(f"?{c}" for c in iri_columns))
    return problems


def _numeric(run: dict, last: bool = False) -> bool:
    """True when the (first or last) column of the preview rows holds numbers."""
    rows = run.get("preview") or []
    if not rows:
        return False
    cell = rows[0][-1 if last else 0]
    try:
        float(cell)
    except (TypeError, ValueError):
        return False
    return True
