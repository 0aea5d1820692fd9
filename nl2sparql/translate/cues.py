"""Cue phrases of the slot extractor: regular expressions over folded questions (Italian and English).

Each table pairs a slot with the phrases that ask for it. Everything is
matched on the folded copy of a question (:func:`~.lexicon.fold_same_length`:
lower case, no accents, same length), where quoted text is hidden (``HIDDEN``
characters) and consumed values are masked (``MASK``), so a cue never fires
inside a quoted word or on a value another slot already took.
"""

from __future__ import annotations

from ..namespaces import LIITA_GRAPH, PREFIXES
from .lexicon import ARTICLE, DIALECT_WORDS, NAMED_HEAD, OF

MASK = "\x01"
HIDDEN = "\x02"  # quoted text in the folded copy: cue words inside quotes never fire
QUOTED = r"«[^»\x01]{1,60}»|\"[^\"\x01]{1,60}\"|(?<![a-z])'[^'\x01\n]{1,40}'(?![a-z])"
VALUE = rf"(?P<v>{QUOTED}|-?[a-z][a-z]*-?)"
# (quoted contents are HIDDEN characters in the folded copy; QUOTED matches them too)
NUMBER = r"(?P<n>[-+]?\d+(?:[.,]\d+)?)"

AFFIX_CUES = (
    ("prefix", r"(?:inizi\w*|comincia\w*|cominci\w*|start\w*|begin\w*|prefiss[oi]|prefix(?:es)?)"),
    ("suffix", r"(?:finisc\w*|finiscono|termina\w*|terminan\w*|suffiss[oi]|suffix(?:es)?|end(?:s|ing)?|desinenz[ae])"),
    ("contains", r"(?:contien\w*|contengon\w*|contenent\w*|contain\w*|includ\w*)"),
)
AFFIX_FILLER = (r"\s*(?:(?:con|per|with|by|in|a)\s+)?(?:(?:(?:il|la|le|the|a|an)\s+)?"
                 r"(?:prefisso|suffisso|desinenza|sequenza|stringa|lettera|lettere|prefix|suffix|string|"
                 r"sequence|letters?)\s+)?")
DEF_CONTAINS = (rf"(?:definizion\w*|definition\w*|defined|definit\w*|skos:definition)(?:\s*\(compl-it\))?"
                 rf"[^«\"\x01.?;]{{0,25}}?(?:contien\w*|contain\w*|cita\w*|menzion\w*|mention\w*|includ\w*|"
                 rf"parla di|with the word|con la parola|usa\w*|uses?)\s*(?:la parola\s+|the word\s+)?{VALUE}")
DEF_CONTAINS_2 = rf"(?:nella definizione|in (?:the|their) definitions?)\s+(?:\w+\s+){{0,2}}?{VALUE}"
# relation kind → regex of the relation noun in constraint or projection phrasing
REL_TARGET = (
    ("hypernym", r"(?:iponim\w*|tipi|tipo|specie|sottotipi|kinds?|types?|sorts?|subtypes?|hyponyms?)"),
    ("holonym", r"(?:parti|parte|parts?|meronim\w*|meronyms?|componenti|components?|pezzi)"),
    ("synonym", r"(?:sinonim\w*|synonyms?|stesso significato|same meaning|significato simile|"
                r"similar meaning|mean(?:s)? the same(?: thing)?|significa(?:no)? lo stesso|"
                r"vogliono dire lo stesso|vuol dire lo stesso)"),
    ("antonym", r"(?:antonim\w*|antonyms?|contrari[oe]?|opposit[oe]s?|oppost[oiae]|il contrario)"),
)
REL_PROJECT = (
    ("hypernym", r"\b(?:iperonim\w*|hypernyms?|categori\w* (?:piu )?general\w*|broader terms?|piu general\w*|"
                 r"more general|superordinat\w*)\b|\ba (?:kind|type|sort) of\s*\??\s*$|"
                 r"\b(?:di )?(?:che|quale) (?:cosa|tipo) (?:e|sia)\b|\bche tipo di cosa\b|\bdi che cosa e un"),
    ("holonym", r"\b(?:olonim\w*|holonyms?|interi di cui|wholes?|belongs? to|fa parte|fanno parte|"
                r"is (?:a )?part of)\b|\bpart of\s*\??\s*$"),
    ("synonym", r"\b(?:sinonim\w*|synonyms?|stesso significato|same meaning)\b"),
    ("antonym", r"\b(?:antonim\w*|antonyms?|contrari\w*|opposit\w*|oppost\w*)\b"),
)
CONSTRAINT_VERB = r"(?:sono|e|siano|are|is|be|hanno|have|has|mean|means|significano|vogliono|indicano|name|denote)"
FACT_NOUNS = (r"(?:definizion[ei]|significat[oi]|sinonimi|contrari|antonimi|iperonimi|olonimi|traduzion[ei]|"
               r"equivalent[ei]|forme(?: flesse)?|plurale|singolare|coniugazione|emozion[ei]|polarita|sensi|"
               r"definitions?|meanings?|synonyms|antonyms|opposites|hypernyms|holonyms|translations?|"
               r"equivalents?|forms|plural|singular|conjugation|emotions?|polarity|senses|sentiment)")
NAMED = (
    rf"\b{FACT_NOUNS}\b(?:\s+[a-z]+){{0,4}}?\s+{OF}\s*{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\bcome si dice\s+(?:in [a-z]+\s+)?{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\bhow (?:do|would|can) (?:you|i|we|one) say\s+(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\b(?:che )?(?:cosa )?(?:significa|vuol dire|vuole dire)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\bwhat does\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}\s+mean",
    rf"\bcos'?\s*e\s+(?:un|una|uno|un')\s*{VALUE}",
    rf"\bwhat is an?\s+{VALUE}\s*\??\s*$",
    rf"\b(?:quanti|quante)\s+(?:sensi|significati|accezioni)\s+ha\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\bhow many (?:senses|meanings) does\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\bcome si coniuga\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\bhow (?:is|do you conjugate|does one conjugate)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\b(?:quali|che) emozioni (?:esprime|evoca|suscita|trasmette|ha)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\b(?:what|which) (?:emotions?|feelings?) (?:does|do)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\bwhat is\s+{VALUE}\s+(?:a (?:kind|type|sort)|part) of",
    rf"\b(?:di )?(?:che )?cosa (?:e un tipo|fa parte)\s+{ARTICLE}?{VALUE}",
    rf"\b(?:define|definisci)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
    rf"\b(?:la parola|the word|il lemma|the lemma|il termine|the term)\s+{VALUE}",
)
COUNT = r"\b(?:quant[ieoa]|how many|numero(?: totale)? di|number of|conta|contare|conteggia\w*|count|totale|total)\b"
SENSES_COUNT = (r"\b(?:quant[ieoa]|how many|numero(?: totale)? di|number of|conta|count)\s+(?:[a-z:-]+\s+){0,2}?"
                 r"(?:sensi|significati|accezioni|senses|meanings|ontolex:sense|ontolex:lexicalsense)\b")
MIN_SENSES = (
    (rf"\b(?:almeno|at least)\s+{NUMBER}\s+(?:[\w:-]+\s+){{0,2}}?(?:sensi|significati|senses|meanings|ontolex:sense)",
     0),
    (rf"\b{NUMBER}\s+(?:o piu|or more)\s+(?:sensi|significati|senses|meanings)", 0),
    (rf"\b(?:piu di|more than|oltre)\s+{NUMBER}\s+(?:sensi|significati|senses|meanings)", 1),
    (r"\b(?:piu di|more than)\s+(?:un|uno|one|a single)\s+(?:senso|significato|sense|meaning)", 2),
    (r"\b(?:polisem\w*|polysem\w*)", 2),
    (r"\b(?:diversi|molti|vari|piu|multipl\w*|several|multiple|(?<!how )many)\s+(?:sensi|significati|senses|meanings)", 2),
)
LIMIT = (r"\b(?:i |le |the )?(?:prim[ie]|first|top)\s+(?P<n>\d+)\b",
          r"\b(?:solo|only|al massimo|at most|limit|limita a|limited to)\s+(?P<n>\d+)\b",
          r"\b(?P<n>\d+)\s+(?:esempi|examples|risultati|results)\b")
THRESHOLD = (rf"(?P<op>superior\w*|maggior\w*|piu alt\w*|sopra|oltre|above|greater|higher|more|over|>=?|"
              rf"inferior\w*|minor\w*|piu bass\w*|sotto|below|less|lower|under|<=?)\s*(?:a|di|than|to|of|=)?\s*{NUMBER}")
DEFINITION = (r"\b(?:definizion\w*|definition\w*|definit[oa]|defined|define|definisci|significato|significa|vuol dire|vuole dire|"
               r"meaning|mean|means|glossa|gloss|skos:definition)\b|\bcos'?\s*e\s+(?:un|una|uno)\b|\bwhat is an?\b")
_DIALECT = "(?P<d>" + "|".join(pattern for _, pattern in DIALECT_WORDS) + ")"
#: Italian lemmas asked for by their dialect translation (the dialect word is the value).
INVERSE_TRANSLATION = (
    rf"\bsi traduc\w*\s+in\s+{_DIALECT}\s+(?:con|come)\s+{VALUE}",
    rf"\b(?:tradott\w*|res[oaie])\s+in\s+{_DIALECT}\s+(?:con|come)\s+{VALUE}",
    rf"\bin\s+{_DIALECT}\s+si dic\w*\s+{VALUE}",
    rf"\bhann?o?\s+{VALUE}\s+come\s+(?:traduzione|equivalente)\s+(?:in\s+)?{_DIALECT}",
    rf"\b(?:traduzione|equivalente)\s+(?:in\s+)?{_DIALECT}\s+(?:e|sia)\s+{VALUE}",
    rf"\b(?:corrispond\w*|equivalgono)\s+(?:a|al|allo)\s+{_DIALECT}\s+{VALUE}",
    rf"\btranslated\s+(?:into|in|to)\s+{_DIALECT}\s+(?:as|by|with)\s+{VALUE}",
    rf"\bhave\s+{VALUE}\s+as\s+(?:their|its|the)\s+{_DIALECT}\s+(?:translation|equivalent)",
    rf"\b{_DIALECT}\s+(?:translation|equivalent)\s+is\s+{VALUE}",
    rf"\b(?:correspond\w*|equivalent)\s+to\s+(?:the\s+)?{_DIALECT}\s+(?:word\s+)?{VALUE}",
    rf"\bare\s+{VALUE}\s+in\s+{_DIALECT}\b",
)
#: "What meanings does X have?" asks for the definitions (a count or a minimum is a sense count instead).
MEANINGS = r"\b(?:meanings|significati|accezioni)\b"
TRANSLATION = (r"\b(?:tradu\w*|translat\w*|come si dice|how do you say|equivalent\w*|corrispondent\w*|dialett\w*|"
                r"dialects?|glossari\w*|glossary|vartrans:translatableas)\b")
FORMS = (r"\b(?:forme flesse|forma flessa|inflected forms?|inflections?|flession\w*|coniuga\w*|conjugat\w*|"
          r"declina\w*|declension|forme|forms|paradigm\w*|ontolex:otherform)\b")
COMPLIT_POS = (r"\b(?:parte del discorso|part of speech|categoria grammatical\w*|grammatical category|"
                r"lexinfo:partofspeech)\b")
EMOTION_CUE = r"\b(?:emozion\w*|emotions?|emotiv\w*|sentiment\w*|elita|elita:hasemotion|feelings?)\b"
EMOTION_PROJECT = (r"\b(?:quali|which|what|le|the|sue|its|loro|their|associate|associated|con|with)\s+"
                    r"(?:[a-z]+\s+)?(?:emozion[ei]|emotions|elita)\b|\belita:hasemotion\b")
POLARITY_CUE = (r"\b(?:polarita|polarity|sentix|sentiment\w*|rated|valutat\w*|classificat\w*|connotazion\w*|"
                 r"connotation|marl:haspolarity\w*)\b")
POLARITY_CLASS = (("Positive", r"positiv[aeio]|positive"), ("Negative", r"negativ[aeio]|negative"),
                   ("Neutral", r"neutr[aeio]|neutral"))
HEADS = (r"(?:parole|termini|lemmi|voci|words|terms|lemmas|entries|sostantiv[oi]|aggettiv[oi]|verb[oi]|"
          r"avverb[oi]|nouns|adjectives|verbs|adverbs)")
TRANSITIVE = (r"\b(?:direttamente o indirettamente|directly or indirectly|anche indirettamente|indirett\w*|"
               r"indirect\w*|transitiv\w*|a qualsiasi livello|at any (?:level|depth)|a ogni livello|"
               r"a tutti i livelli)\b|lexinfo:hyponym\+")
GRAPH_NAMES = (
    (r"lemma ?bank|banca dei lemmi|liita\.it/data\b", LIITA_GRAPH),
    (r"\belita\b", "http://w3id.org/elita"),
    (r"\bsentix\b", "http://liita.it/data/sentix"),
    (r"\bparmigian\w*|\bparma\b", "http://liita.it/data/parmigiano"),
    (r"\bsicilian\w*", "http://liita.it/data/siciliano"),
    (r"\bcompl-?it\b", "https://klab.ilc.cnr.it/graphdb-compl-it/"),
    (r"\bmorpholog\w*|\bmorfologi\w*", "http://liita.it/data/morphology"),
)
ANTONYM_PROPS = {"antonymgrad": "http://klab/lexicon/vocabulary/compl-it#antonymGrad",
                  "antonymcomp": "http://klab/lexicon/vocabulary/compl-it#antonymComp",
                  "lexinfo:antonym": PREFIXES["lexinfo"] + "antonym",
                  "lexinfo#antonym": PREFIXES["lexinfo"] + "antonym"}
