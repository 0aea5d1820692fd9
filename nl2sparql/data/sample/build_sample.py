#!/usr/bin/env python3
"""Build ``liita_sample.trig``: the small, LiITA-shaped sample KB embedded in nl2sparql.

Everything below is hand-written for the nl2sparql project (CC0 1.0): the words,
ids, definitions, polarity values and dialect spellings are an invented
*sample for testing and demos*, not a linguistic resource. Only the IRI
schemes and vocabularies follow LiITA (see ``README.md`` next to this file).

The script is deterministic: the same tables give a byte-identical file.

    python nl2sparql/data/sample/build_sample.py            # writes nl2sparql/data/sample/liita_sample.trig
    python nl2sparql/data/sample/build_sample.py --output /tmp/x.trig --stats

Editing rules: ids are assigned from the position of a word in its table, so
append new words at the END of a block (or add a block with a new base id);
every word used by a layer must exist in the lemma tables (the build fails
loudly otherwise).
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
OUTPUT = HERE / "liita_sample.trig"

sys.path.insert(0, str(REPO))
from nl2sparql.namespaces import (  # noqa: E402  (after the path tweak)
    COMPLIT_LINKS_GRAPH,
    COMPLIT_SERVICE,
    COMPLIT_VOCAB,
    COMPLIT_WORD_BASE,
    ELITA_GRAPH,
    EMOTIONS,
    HYPOLEMMA_BASE,
    LEMMA_BANK,
    LEMMA_BASE,
    LIITA_GRAPH,
    PARMIGIANO_GRAPH,
    PARMIGIANO_LEMMA_BANK,
    PARMIGIANO_LEMMA_BASE,
    PARMIGIANO_LEXICON,
    PREFIXES,
    SENTIX_GRAPH,
    SICILIANO_GRAPH,
    SICILIANO_LEMMA_BANK,
    SICILIANO_LEMMA_BASE,
    SICILIANO_LEXICON,
)

# Our own choices (documented in README.md).
MORPHOLOGY_GRAPH = "http://liita.it/data/morphology"
MORPH_ENTRY_BASE = "http://liita.it/data/id/LexicalEntry/morphology/"
MORPH_FORM_BASE = MORPH_ENTRY_BASE + "form/"
SENTIX_ENTRY_BASE = "http://liita.it/data/sentix/entry/"
ELITA_ENTRY_BASE = PREFIXES["elita"] + "lexicon/"
INFLECTION_BASE = "http://liita.it/ontologies/liita/"
PARMIGIANO_ENTRY_BASE = "http://liita.it/data/id/LexicalReources/DialettoParmigiano/id/LexicalEntry/"
SICILIANO_ENTRY_BASE = "http://liita.it/data/id/LexicalResources/DialettoSiciliano/id/LexicalEntry/"

# Prefixes written in the TriG file: the project's own plus three local ones.
FILE_PREFIXES = dict(PREFIXES)
FILE_PREFIXES.update({
    "owl": "http://www.w3.org/2002/07/owl#",
    "void": "http://rdfs.org/ns/void#",
    "complit": COMPLIT_VOCAB,
})


def _w(text: str) -> list[str]:
    """Split a whitespace-separated word table."""
    return text.split()


# =============================================================================
# Layer 1: Italian Lemma Bank  (graph <http://liita.it/data>)
# =============================================================================
# (first id, LiLa POS, gender, words). Gender "both" = masculine AND feminine.

LEMMA_BLOCKS: tuple[tuple[int, str, str | None, list[str]], ...] = (
    (800001, "noun", "masculine", _w("""
        cane gatto cavallo leone lupo topo maiale coniglio orso mammifero animale
        organismo uccello pesce rettile insetto serpente ragno scorpione verme corvo
        passero tonno salmone squalo coccodrillo cobra
        uomo bambino ragazzo amico nemico lavoratore medico dottore pittore scrittore
        attore muratore parente padre fratello figlio zio nonno soldato giocatore
        fanciullo
        stato sentimento timore spavento terrore disgusto ribrezzo schifo stupore odio
        affetto amore dolore desiderio coraggio
        oggetto veicolo strumento mobile indumento edificio treno autobus aereo camion
        taxi bastimento martello coltello cacciavite tavolo letto armadio divano
        tavolino cappello cappotto ospedale castello palazzo pianoforte violino tamburo
        colore rosso verde giallo blu nero bianco azzurro
        cibo vino latte caffè tè pane formaggio riso uovo zucchero sale frutto limone
        periodo giorno mese anno pomeriggio lunedì martedì mercoledì giovedì venerdì
        sabato
        corpo collo braccio cuore occhio naso orecchio cervello viso volto gomito polso
        dito palmo piede ginocchio pollice indice
        albero fiore tronco ramo fusto petalo stelo polline tulipano giglio olivo pino melo
        tetto muro pavimento bagno motore volante freno sedile pedale manubrio libro
        capitolo schienale bracciolo becco campanile altare bosco gregge sciame branco
        esercito legno vetro ferro cuoio quartiere materiale veleno
        sorriso divertimento entusiasmo successo lutto buio pericolo incubo fango
        litigio regalo miracolo futuro progetto viaggio bacio abbraccio matrimonio
        tradimento inganno sospetto premio sole fuoco vento lavoro inizio principio
        termine capo gioco obiettivo
        gattino cagnolino pulcino cuscino libretto rispetto difetto ombrello campanello
        vitello asinello cannone portone bastone pallone turismo ottimismo pessimismo
        egoismo altruismo ciclismo giornalismo terrorismo eroismo romanticismo trattore
        calciatore allenatore traditore ritorno ricordo riposo disordine disprezzo
        disagio disastro disegno dispiacere discorso presidente prefisso antipasto
        antibiotico antifurto anticipo antidoto inverno autunno autoritratto
        capolavoro capoluogo capostazione capofamiglia capodanno capogiro capolinea
        supermercato supereroe trasporto trasloco trasferimento acquario acquazzone
        acquedotto acquerello geologo casale casato mare maremoto
    """)),
    (801001, "noun", "feminine", _w("""
        casa abitazione chiesa scuola torre stazione stanza cucina camera porta finestra
        pianta erba quercia rosa margherita viola mela pera arancia banana ciliegia
        fragola uva
        donna madre sorella persona
        mucca pecora gallina aquila colomba zanzara formica mosca farfalla ape vespa
        vipera lucertola tartaruga medusa trota
        emozione paura gioia rabbia tristezza sorpresa ansia vergogna allegria felicità
        angoscia collera ira furia meraviglia euforia malinconia gelosia nostalgia
        speranza fiducia invidia passione tenerezza pietà ammirazione aspettativa
        attesa delusione disperazione preoccupazione soddisfazione fede sfiducia
        automobile macchina bicicletta bici nave motocicletta forbici sega chiave
        chitarra sedia giacca camicia scarpa gonna
        entità sostanza bevanda acqua birra pasta carne
        settimana stagione primavera estate domenica mattina sera notte
        testa gamba mano unghia caviglia lingua bocca foglia radice corolla ruota portiera
        sella catena pagina copertina ala penna zampa pinna branchia squama navata
        famiglia orchestra squadra città strada via piazza carta
        festa lacrima solitudine morte vita malattia guerra pace puzza violenza offesa
        scoperta promessa curiosità sicurezza certezza lealtà luna stella terra neve
        pioggia fidanzata zappa poesia pazzia fantasia
        lezione nazione colazione attenzione costruzione azione canzone bellezza
        dolcezza grandezza debolezza giovinezza ricchezza altezza salvezza verità
        università velocità generosità serenità attività possibilità umanità identità
        eternità casalinga casetta risposta sfortuna sconfitta autostrada autonomia
        autostima superficie superstizione geografia geometria geologia geopolitica
        marea amarezza antipatia frustrazione
    """)),
    (802001, "noun", "both", _w("""
        artista giornalista dentista turista pianista autista ciclista musicista
        cantante nipote insegnante amante collega ottimista pessimista fine
    """)),
    (803001, "verb", None, _w("""
        essere avere andare fare parlare amare temere dormire finire vedere dire venire
        piangere ridere sperare aspettare credere fidare vincere perdere entrare uscire
        salire scendere aprire chiudere iniziare cominciare terminare guardare osservare
        urlare tagliare scrivere battere spaventare stupire abbracciare baciare vomitare
        odiare innamorare arrabbiare mangiare bere sognare
        rifare ritornare ricordare riposare ripetere rimanere rivedere riaprire disfare
        prevedere preparare superare trasformare trasmettere trascurare scomparire
        scoprire svegliare obbedire
    """)),
    (804001, "adjective", None, _w("""
        caldo freddo alto basso grande piccolo bello brutto carino orribile terribile
        veloce rapido lento felice contento triste malinconico infelice lungo corto
        buono cattivo giovane vecchio forte debole pesante leggero facile difficile vivo
        morto vero falso presente assente possibile impossibile utile inutile giusto
        ingiusto dolce amaro velenoso pauroso coraggioso pericoloso sporco pulito
        allegro fedele incredibile improvviso ripugnante caro gioioso amabile affidabile
        spaventoso nervoso inaspettato
        insopportabile invisibile doloroso amoroso famoso curioso rabbioso affettuoso
        generoso fiducioso schifoso meraviglioso delizioso prezioso antico insicuro
        inquieto infinito scontento scortese trasparente automatico superiore superbo
        disonesto casalingo geotermico uguale familiare
    """)),
    (805001, "adjective", None, _w("""
        ottimo pessimo massimo minimo bellissimo felicissimo
    """)),
    (806001, "adverb", None, _w("""
        finalmente veramente solamente certamente improvvisamente probabilmente molto
        poco sempre mai già più qui là oggi domani ieri bene male presto tardi purtroppo
        insieme forse così ancora spesso innanzitutto soprattutto
    """)),
    (807001, "proper_noun", None, _w("Italia Roma Sicilia Parma Napoli Milano Venezia")),
    (807101, "interjection", None, _w("ahi evviva ohimè ciao uffa accidenti")),
    (807201, "pronoun", None, _w("io tu lui lei noi voi loro qualcuno nessuno")),
    (807301, "numeral", None, _w("uno due tre dieci cento mille")),
    (807401, "adposition", None, _w("di a da in con su per tra fra")),
    (807501, "determiner", None, _w("il lo la questo quello ogni")),
    (807601, "coordinating_conjunction", None, _w("e o ma però oppure")),
    (807701, "subordinating_conjunction", None, _w("perché se quando mentre benché poiché affinché")),
)

#: Adjectives of block 805001 carry lila:superlative; the other adjectives lila:positive.
SUPERLATIVE_BLOCK = 805001

#: Lemmas with a second written representation (spelling variants).
VARIANTS: dict[str, tuple[str, ...]] = {
    "gioco": ("giuoco",),
    "obiettivo": ("obbiettivo",),
    "uguale": ("eguale",),
    "familiare": ("famigliare",),
    "obbedire": ("ubbidire",),
    "innanzitutto": ("innanzi tutto",),
}

#: Hypolemmas: (first id, POS, [(hypolemma, lemma)]).
HYPOLEMMA_BLOCKS: tuple[tuple[int, str, tuple[tuple[str, str], ...]], ...] = (
    (900001, "adjective", (  # past participles
        ("amato", "amare"), ("temuto", "temere"), ("spaventato", "spaventare"),
        ("arrabbiato", "arrabbiare"), ("innamorato", "innamorare"), ("stupito", "stupire"),
        ("finito", "finire"), ("visto", "vedere"), ("detto", "dire"), ("fatto", "fare"),
        ("aperto", "aprire"), ("chiuso", "chiudere"), ("perso", "perdere"),
        ("sperato", "sperare"), ("scritto", "scrivere"), ("tagliato", "tagliare"),
    )),
    (900501, "adverb", (  # -mente adverbs
        ("felicemente", "felice"), ("tristemente", "triste"), ("lentamente", "lento"),
        ("rapidamente", "rapido"), ("dolcemente", "dolce"), ("velocemente", "veloce"),
        ("fortemente", "forte"), ("facilmente", "facile"), ("amaramente", "amaro"),
        ("coraggiosamente", "coraggioso"), ("pericolosamente", "pericoloso"),
        ("allegramente", "allegro"),
    )),
)


def _inflection_type(verb: str) -> str:
    """Verb class by infinitive ending (c1 -are, c2 -ere, c3 -ire)."""
    for ending, code in (("are", "c1"), ("ere", "c2"), ("ire", "c3")):
        if verb.endswith(ending):
            return code
    raise ValueError(f"no inflection type for {verb!r}")


# =============================================================================
# Layer 2: ELITA emotion lexicon  (graph <http://w3id.org/elita>)
# =============================================================================
# (word, emotions, polarity value). Values are signed (-1..1, as in the real
# ELITA file); the literal marl:Polarity is derived: >= 0.25 Positive,
# <= -0.25 Negative, otherwise Neutral. A word may be a hypolemma.

ELITA: tuple[tuple[str, str, float], ...] = (
    # Gioia
    ("gioia", "Gioia", 0.92), ("felicità", "Gioia", 0.94), ("allegria", "Gioia", 0.86),
    ("felice", "Gioia", 0.88), ("contento", "Gioia", 0.74), ("ridere", "Gioia", 0.7),
    ("festa", "Gioia Aspettativa", 0.72), ("sorriso", "Gioia Amore", 0.81),
    ("divertimento", "Gioia", 0.68), ("euforia", "Gioia Sorpresa", 0.6),
    ("gioioso", "Gioia", 0.85), ("soddisfazione", "Gioia Fiducia", 0.76),
    ("successo", "Gioia Aspettativa", 0.7), ("allegro", "Gioia", 0.8),
    ("felicemente", "Gioia", 0.79), ("vincere", "Gioia Sorpresa", 0.66),
    ("entusiasmo", "Gioia Aspettativa", 0.84),
    # Tristezza
    ("tristezza", "Tristezza", -0.86), ("triste", "Tristezza", -0.8),
    ("piangere", "Tristezza", -0.7), ("lacrima", "Tristezza", -0.58),
    ("dolore", "Tristezza Paura", -0.85), ("malinconia", "Tristezza", -0.6),
    ("nostalgia", "Tristezza Amore", -0.3), ("lutto", "Tristezza", -0.9),
    ("solitudine", "Tristezza Paura", -0.62), ("morte", "Tristezza Paura", -0.95),
    ("malattia", "Tristezza Paura", -0.8), ("infelice", "Tristezza", -0.8),
    ("delusione", "Tristezza Sorpresa", -0.7), ("disperazione", "Tristezza Paura", -0.94),
    ("pietà", "Tristezza Amore", 0.1), ("perdere", "Tristezza Rabbia", -0.6),
    ("malinconico", "Tristezza", -0.6), ("amaro", "Tristezza Disgusto", -0.42),
    ("tristemente", "Tristezza", -0.7), ("vergogna", "Tristezza Paura", -0.72),
    # Paura
    ("paura", "Paura", -0.8), ("timore", "Paura", -0.6), ("spavento", "Paura Sorpresa", -0.75),
    ("terrore", "Paura", -0.95), ("temere", "Paura", -0.62), ("ansia", "Paura Aspettativa", -0.7),
    ("angoscia", "Paura Tristezza", -0.86), ("pericolo", "Paura", -0.72),
    ("pericoloso", "Paura", -0.7), ("pauroso", "Paura", -0.6), ("spaventato", "Paura", -0.7),
    ("spaventare", "Paura", -0.68), ("buio", "Paura", -0.4), ("incubo", "Paura", -0.82),
    ("guerra", "Paura Tristezza Rabbia", -0.92), ("vipera", "Paura Disgusto", -0.62),
    ("ragno", "Paura Disgusto", -0.5), ("scorpione", "Paura", -0.52), ("lupo", "Paura", -0.3),
    ("preoccupazione", "Paura Aspettativa", -0.6), ("velenoso", "Paura Disgusto", -0.7),
    ("spaventoso", "Paura", -0.8), ("terribile", "Paura Tristezza", -0.85),
    ("sospetto", "Paura Aspettativa", -0.4), ("coraggio", "Fiducia Aspettativa", 0.8),
    # Disgusto
    ("disgusto", "Disgusto", -0.86), ("ribrezzo", "Disgusto", -0.8), ("schifo", "Disgusto", -0.9),
    ("vomitare", "Disgusto", -0.7), ("sporco", "Disgusto", -0.6), ("puzza", "Disgusto", -0.72),
    ("verme", "Disgusto", -0.5), ("topo", "Disgusto Paura", -0.42), ("mosca", "Disgusto", -0.3),
    ("ripugnante", "Disgusto", -0.9), ("orribile", "Disgusto Paura", -0.86),
    ("fango", "Disgusto", -0.3), ("brutto", "Disgusto", -0.6),
    # Rabbia
    ("rabbia", "Rabbia", -0.85), ("collera", "Rabbia", -0.8), ("ira", "Rabbia", -0.84),
    ("furia", "Rabbia", -0.7), ("odio", "Rabbia Disgusto", -0.92), ("odiare", "Rabbia Disgusto", -0.86),
    ("urlare", "Rabbia Paura", -0.4), ("violenza", "Rabbia Paura", -0.9),
    ("nemico", "Rabbia Paura", -0.7), ("offesa", "Rabbia Tristezza", -0.75),
    ("litigio", "Rabbia", -0.6), ("nervoso", "Rabbia", -0.5), ("inganno", "Rabbia Disgusto", -0.8),
    ("invidia", "Rabbia Tristezza", -0.7), ("arrabbiato", "Rabbia", -0.8),
    ("cattivo", "Rabbia Disgusto", -0.7), ("tradimento", "Rabbia Disgusto Tristezza", -0.9),
    ("gelosia", "Amore Rabbia Paura", -0.6),
    # Sorpresa
    ("sorpresa", "Sorpresa", 0.4), ("stupore", "Sorpresa", 0.2), ("meraviglia", "Sorpresa Gioia", 0.8),
    ("improvviso", "Sorpresa Paura", 0.0), ("incredibile", "Sorpresa", 0.5),
    ("stupire", "Sorpresa", 0.4), ("stupito", "Sorpresa", 0.3),
    ("regalo", "Sorpresa Gioia Amore", 0.86), ("scoperta", "Sorpresa Aspettativa", 0.6),
    ("miracolo", "Sorpresa Gioia Fiducia", 0.8), ("improvvisamente", "Sorpresa", 0.0),
    ("inaspettato", "Sorpresa", 0.1), ("curiosità", "Sorpresa Aspettativa", 0.4),
    # Aspettativa
    ("aspettativa", "Aspettativa", 0.2), ("attesa", "Aspettativa", 0.1),
    ("speranza", "Aspettativa Fiducia Gioia", 0.76), ("sperare", "Aspettativa", 0.6),
    ("aspettare", "Aspettativa", 0.0), ("desiderio", "Aspettativa Amore", 0.5),
    ("futuro", "Aspettativa", 0.3), ("progetto", "Aspettativa", 0.4),
    ("promessa", "Aspettativa Fiducia", 0.5), ("viaggio", "Aspettativa Gioia", 0.6),
    ("domani", "Aspettativa", 0.1), ("ottimismo", "Aspettativa Fiducia Gioia", 0.82),
    ("sognare", "Aspettativa Gioia", 0.56),
    # Fiducia
    ("fiducia", "Fiducia", 0.8), ("fede", "Fiducia", 0.7), ("amico", "Fiducia Amore Gioia", 0.86),
    ("sicurezza", "Fiducia", 0.7), ("fedele", "Fiducia Amore", 0.76), ("lealtà", "Fiducia", 0.8),
    ("medico", "Fiducia", 0.3), ("certezza", "Fiducia", 0.6), ("credere", "Fiducia", 0.4),
    ("fidare", "Fiducia", 0.6), ("famiglia", "Fiducia Amore Gioia", 0.82),
    ("affidabile", "Fiducia", 0.76), ("ammirazione", "Fiducia Sorpresa", 0.8),
    ("padre", "Fiducia Amore", 0.5), ("cane", "Fiducia Amore", 0.5), ("sfiducia", "Tristezza", -0.6),
    # Amore
    ("amore", "Amore Gioia", 0.96), ("amare", "Amore", 0.9), ("affetto", "Amore Fiducia", 0.86),
    ("bacio", "Amore Gioia", 0.86), ("abbraccio", "Amore Gioia Fiducia", 0.84),
    ("cuore", "Amore", 0.6), ("passione", "Amore Gioia", 0.76), ("tenerezza", "Amore", 0.8),
    ("madre", "Amore Fiducia", 0.8), ("innamorato", "Amore Gioia", 0.86), ("caro", "Amore", 0.6),
    ("dolce", "Amore Gioia", 0.7), ("rosa", "Amore Gioia", 0.6),
    ("matrimonio", "Amore Gioia Fiducia Aspettativa", 0.7), ("amante", "Amore", 0.5),
    ("amabile", "Amore Fiducia", 0.84), ("abbracciare", "Amore", 0.8), ("baciare", "Amore", 0.8),
)


def _elita_polarity(value: float) -> str:
    if value >= 0.25:
        return "Positive"
    if value <= -0.25:
        return "Negative"
    return "Neutral"


# =============================================================================
# Layer 3: Sentix polarity  (graph <http://liita.it/data/sentix>)
# =============================================================================
# word -> polarity value (-1..1). marl:hasPolarity: > 0.1 Positive, < -0.1
# Negative, otherwise Neutral. Values differ on purpose from ELITA's.

SENTIX: dict[str, float] = {
    # emotion words (most of ELITA)
    "gioia": 0.875, "felicità": 0.9, "allegria": 0.812, "felice": 0.833, "contento": 0.667,
    "ridere": 0.5, "festa": 0.625, "sorriso": 0.75, "divertimento": 0.6, "euforia": 0.55,
    "gioioso": 0.8, "soddisfazione": 0.7, "successo": 0.667, "allegro": 0.75, "vincere": 0.6,
    "entusiasmo": 0.75, "tristezza": -0.8, "triste": -0.75, "piangere": -0.625,
    "lacrima": -0.5, "dolore": -0.812, "malinconia": -0.5, "nostalgia": -0.25, "lutto": -0.875,
    "solitudine": -0.55, "morte": -0.9, "malattia": -0.75, "infelice": -0.775,
    "delusione": -0.7, "disperazione": -0.9, "pietà": 0.125, "perdere": -0.5,
    "malinconico": -0.5, "amaro": -0.375, "vergogna": -0.667,
    "paura": -0.75, "timore": -0.5, "spavento": -0.7, "terrore": -0.9, "temere": -0.55,
    "ansia": -0.667, "angoscia": -0.8, "pericolo": -0.625, "pericoloso": -0.65,
    "pauroso": -0.5, "spaventare": -0.6, "buio": -0.25, "incubo": -0.75, "guerra": -0.875,
    "vipera": -0.5, "ragno": -0.25, "scorpione": -0.375, "lupo": -0.125,
    "preoccupazione": -0.55, "velenoso": -0.625, "spaventoso": -0.75, "terribile": -0.8,
    "sospetto": -0.375, "coraggio": 0.75,
    "disgusto": -0.8, "ribrezzo": -0.75, "schifo": -0.85, "vomitare": -0.625, "sporco": -0.5,
    "puzza": -0.625, "verme": -0.375, "topo": -0.25, "mosca": -0.125, "ripugnante": -0.85,
    "orribile": -0.8, "fango": -0.25, "brutto": -0.55,
    "rabbia": -0.75, "collera": -0.75, "ira": -0.8, "furia": -0.625, "odio": -0.875,
    "odiare": -0.8, "urlare": -0.375, "violenza": -0.85, "nemico": -0.625, "offesa": -0.7,
    "litigio": -0.55, "nervoso": -0.45, "inganno": -0.75, "invidia": -0.625,
    "cattivo": -0.667, "tradimento": -0.85, "gelosia": -0.5,
    "sorpresa": 0.375, "stupore": 0.25, "meraviglia": 0.75, "improvviso": -0.05,
    "incredibile": 0.45, "stupire": 0.375, "regalo": 0.8, "scoperta": 0.55, "miracolo": 0.75,
    "improvvisamente": 0.0, "inaspettato": 0.05, "curiosità": 0.375,
    "aspettativa": 0.125, "attesa": 0.05, "speranza": 0.7, "sperare": 0.55, "aspettare": 0.0,
    "desiderio": 0.45, "futuro": 0.25, "progetto": 0.375, "promessa": 0.45, "viaggio": 0.55,
    "ottimismo": 0.75, "sognare": 0.5,
    "fiducia": 0.75, "fede": 0.625, "amico": 0.8, "sicurezza": 0.625, "fedele": 0.7,
    "lealtà": 0.75, "medico": 0.25, "certezza": 0.55, "credere": 0.375, "fidare": 0.55,
    "famiglia": 0.75, "affidabile": 0.7, "ammirazione": 0.75, "padre": 0.375, "cane": 0.375,
    "sfiducia": -0.55,
    "amore": 0.9, "amare": 0.85, "affetto": 0.8, "bacio": 0.8, "abbraccio": 0.8, "cuore": 0.5,
    "passione": 0.7, "tenerezza": 0.75, "madre": 0.7, "caro": 0.55, "dolce": 0.625,
    "rosa": 0.5, "matrimonio": 0.625, "amante": 0.45, "amabile": 0.8, "abbracciare": 0.75,
    "baciare": 0.75,
    # other words of the core vocabulary
    "casa": 0.25, "gatto": 0.25, "cavallo": 0.125, "sole": 0.5, "luna": 0.125, "pane": 0.125,
    "acqua": 0.05, "vino": 0.25, "fiore": 0.5, "pace": 0.875, "vita": 0.75, "bello": 0.8,
    "buono": 0.75, "grande": 0.25, "piccolo": -0.05, "caldo": 0.125, "freddo": -0.25,
    "vecchio": -0.25, "giovane": 0.25, "forte": 0.5, "debole": -0.5, "facile": 0.5,
    "difficile": -0.375, "vero": 0.375, "falso": -0.625, "utile": 0.5, "inutile": -0.5,
    "giusto": 0.5, "ingiusto": -0.625, "vivo": 0.375, "morto": -0.75, "pulito": 0.375,
    "lavoro": 0.125, "scuola": 0.125, "libro": 0.25, "bambino": 0.375, "donna": 0.125,
    "uomo": 0.05, "nave": 0.0, "treno": 0.0, "automobile": 0.0, "martello": 0.0,
    "coltello": -0.125, "veleno": -0.8, "premio": 0.75,
}


def _sentix_polarity(value: float) -> str:
    if value > 0.1:
        return "Positive"
    if value < -0.1:
        return "Negative"
    return "Neutral"


# =============================================================================
# Layer 4: Parmigiano  (graph <http://liita.it/data/parmigiano>)
# =============================================================================
# (Italian lemma, Parmigiano word, usage comment or ""). The Parmigiano lemma
# takes the POS of the Italian lemma. Plausible spellings written for this
# sample; an Italian lemma listed twice gets two translations.

PARMIGIANO: tuple[tuple[str, str, str], ...] = (
    ("casa", "cà", ""), ("cane", "can", ""), ("gatto", "gat", ""), ("cavallo", "cavàl", ""),
    ("maiale", "gozén", ""), ("pecora", "pégora", ""), ("mucca", "vaca", ""),
    ("topo", "sórs", ""), ("lupo", "lóv", ""), ("uccello", "usèl", ""),
    ("gallina", "galén-na", ""), ("ape", "ava", ""), ("mosca", "mósca", ""),
    ("ragno", "ragn", ""), ("vipera", "vìpra", ""), ("serpente", "bissa", ""),
    ("lucertola", "lusèrta", ""), ("pesce", "pès", ""), ("verme", "bigàt", ""),
    ("coniglio", "cunìl", ""),
    ("pane", "pän", ""), ("acqua", "acua", ""), ("vino", "vén", ""), ("latte", "lat", ""),
    ("formaggio", "formàj", ""), ("uovo", "óv", ""), ("zucchero", "zùccher", ""),
    ("sale", "säl", ""), ("carne", "cärna", ""), ("caffè", "cafè", ""), ("birra", "bìra", ""),
    ("riso", "ris", ""),
    ("padre", "pädor", ""), ("madre", "mädra", ""), ("fratello", "fradél", ""),
    ("sorella", "sorèla", ""), ("figlio", "fiôl", ""), ("nonno", "nón", ""),
    ("zio", "bärba", "Usage: fratello del padre o della madre"), ("bambino", "putén", ""),
    ("ragazzo", "ragàs", ""), ("uomo", "òmm", ""), ("donna", "dònna", ""),
    ("amico", "amìgh", ""), ("nemico", "nemìgh", ""), ("medico", "médich", ""),
    ("medico", "dotór", "Usage: colloquiale, il medico di famiglia"),
    ("famiglia", "famìja", ""),
    ("paura", "pòra", ""), ("paura", "spaghèt", "Usage: colloquiale, spavento improvviso"),
    ("gioia", "giòja", ""), ("felicità", "felicitè", ""), ("allegria", "alegrìa", ""),
    ("tristezza", "tristèsa", ""),
    ("tristezza", "magòn", "Usage: tristezza che stringe la gola"),
    ("dolore", "dolór", ""), ("rabbia", "rabia", ""), ("odio", "òdi", ""),
    ("amore", "amór", ""), ("speranza", "speransa", ""), ("fiducia", "fidùcia", ""),
    ("sorpresa", "sorpréza", ""), ("vergogna", "vergògna", ""), ("gelosia", "gelozìa", ""),
    ("coraggio", "curàg", ""), ("spavento", "spavént", ""), ("disgusto", "dezgùst", ""),
    ("malinconia", "malinconìa", ""),
    ("cuore", "cór", ""), ("testa", "tésta", ""), ("testa", "cò", "Usage: anche nel senso di capo"),
    ("mano", "man", ""), ("piede", "pè", ""), ("occhio", "òc", ""), ("naso", "nas", ""),
    ("bocca", "bòca", ""), ("bacio", "basén", ""),
    ("braccio", "brasc", ""), ("gamba", "gamba", ""), ("dito", "dè", ""),
    ("sole", "sól", ""), ("luna", "lón-na", ""), ("notte", "nòta", ""), ("giorno", "dì", ""),
    ("fuoco", "fóg", ""), ("terra", "téra", ""), ("neve", "név", ""), ("pioggia", "pióva", ""),
    ("vento", "vént", ""),
    ("albero", "àlbor", ""), ("fiore", "fiór", ""), ("rosa", "rösa", ""), ("mela", "póm", ""),
    ("pera", "pér", ""), ("uva", "ùva", ""),
    ("chiesa", "céza", ""), ("strada", "strèda", ""), ("piazza", "piasa", ""),
    ("scuola", "scòla", ""), ("città", "sità", ""), ("porta", "pòrta", ""),
    ("finestra", "fnèstra", ""), ("tetto", "tèt", ""), ("letto", "lèt", ""),
    ("tavolo", "tàvla", ""), ("sedia", "scràna", ""), ("coltello", "cortél", ""),
    ("martello", "martél", ""), ("forbici", "fórbza", ""), ("camicia", "camìza", ""),
    ("scarpa", "scärpa", ""), ("cappello", "capél", ""),
    ("bello", "bél", ""), ("brutto", "brut", ""), ("grande", "grand", ""),
    ("piccolo", "pcén", ""), ("caldo", "cäld", ""), ("freddo", "fréd", ""), ("buono", "bón", ""),
    ("cattivo", "catìv", ""), ("dolce", "dóls", ""), ("felice", "feliz", ""),
    ("contento", "contént", ""), ("triste", "trìst", ""), ("vecchio", "vèc", ""),
    ("sporco", "spórch", ""),
    ("ridere", "rìdor", ""), ("piangere", "pianzor", ""), ("mangiare", "magnär", ""),
    ("bere", "bévor", ""), ("dormire", "dormìr", ""), ("parlare", "parlär", ""),
    ("andare", "andär", ""), ("fare", "fär", ""), ("dire", "dir", ""), ("vedere", "védor", ""),
    ("amare", "amär", ""), ("temere", "tèmor", ""), ("sperare", "sperär", ""),
    ("aspettare", "aspetär", ""),
    ("guerra", "guèra", ""), ("festa", "fèsta", ""), ("regalo", "regàl", ""),
    ("morte", "mòrt", ""), ("vita", "vìta", ""), ("lavoro", "lavór", ""),
    ("malattia", "malatìa", ""), ("pericolo", "perìcol", ""),
    ("abbraccio", "abràs", ""), ("lacrima", "lègrima", ""),
)

# =============================================================================
# Layer 5: Sicilian  (graph <http://liita.it/data/siciliano>)
# =============================================================================
# (Italian lemma, Sicilian written reps "a/b" for variants, gender for nouns).
# POS comes from the Italian lemma. The same Sicilian word may translate two
# Italian lemmas (scantu: paura, spavento); an Italian lemma listed twice has
# two translations.

SICILIANO: tuple[tuple[str, str, str | None], ...] = (
    ("casa", "casa", "f"), ("cane", "cani", "m"), ("gatto", "gattu/jattu", "m"),
    ("cavallo", "cavaddu", "m"), ("maiale", "porcu", "m"), ("pecora", "pècura", "f"),
    ("topo", "surci", "m"), ("lupo", "lupu", "m"), ("uccello", "aceddu", "m"),
    ("gallina", "gaddina", "f"), ("ape", "apa", "f"), ("mosca", "musca", "f"),
    ("ragno", "ragnu", "m"), ("vipera", "vìpira", "f"), ("serpente", "sirpenti", "m"),
    ("serpente", "scursuni", "m"), ("pesce", "pisci", "m"), ("verme", "vermi", "m"),
    ("coniglio", "cunigghiu", "m"),
    ("pane", "pani", "m"), ("acqua", "acqua", "f"), ("vino", "vinu", "m"), ("latte", "latti", "m"),
    ("formaggio", "tumazzu", "m"), ("uovo", "ovu", "m"), ("zucchero", "zzuccaru", "m"),
    ("sale", "sali", "m"), ("carne", "carni", "f"), ("caffè", "cafè", "m"), ("riso", "risu", "m"),
    ("zappa", "zzappa", "f"),
    ("padre", "patri", "m"), ("madre", "matri", "f"), ("fratello", "frati", "m"),
    ("sorella", "soru", "f"), ("figlio", "figghiu", "m"), ("nonno", "nannu", "m"),
    ("zio", "ziu", "m"), ("fidanzata", "zita", "f"), ("bambino", "picciriddu", "m"),
    ("ragazzo", "picciottu", "m"), ("ragazzo", "carusu", "m"), ("uomo", "omu", "m"),
    ("donna", "fìmmina", "f"), ("amico", "amicu", "m"), ("nemico", "nimicu", "m"),
    ("medico", "mèdicu", "m"), ("famiglia", "famigghia", "f"),
    ("paura", "scantu", "m"), ("spavento", "scantu", "m"), ("gioia", "priu", "m"),
    ("allegria", "alligrìa", "f"), ("tristezza", "tristizza", "f"), ("dolore", "duluri", "m"),
    ("rabbia", "raggia", "f"), ("odio", "odiu", "m"), ("amore", "amuri", "m"),
    ("speranza", "spiranza", "f"), ("sorpresa", "surprisa", "f"), ("vergogna", "vriogna", "f"),
    ("gelosia", "gilusìa", "f"), ("malattia", "malatìa", "f"), ("poesia", "puisìa", "f"),
    ("pazzia", "pazzìa", "f"), ("fantasia", "fantasìa", "f"), ("coraggio", "curaggiu", "m"),
    ("cuore", "cori", "m"), ("testa", "testa", "f"), ("mano", "manu", "f"),
    ("piede", "pedi/peri", "m"), ("occhio", "occhiu", "m"), ("naso", "nasu", "m"), ("bocca", "vucca", "f"),
    ("braccio", "vrazzu/brazzu", "m"), ("gamba", "jamma", "f"), ("dito", "jditu", "m"),
    ("sole", "suli", "m"), ("luna", "luna", "f"), ("notte", "notti", "f"), ("giorno", "jornu", "m"),
    ("fuoco", "focu", "m"), ("terra", "terra", "f"), ("neve", "nivi", "f"), ("vento", "ventu", "m"),
    ("albero", "àrvulu", "m"), ("fiore", "ciuri", "m"), ("rosa", "rosa", "f"), ("mela", "pumu", "m"),
    ("chiesa", "crèsia", "f"), ("strada", "strata", "f"), ("piazza", "chiazza", "f"),
    ("scuola", "scola", "f"), ("città", "cità", "f"), ("porta", "porta", "f"),
    ("letto", "lettu", "m"), ("tavolo", "tàvula", "f"), ("sedia", "seggia", "f"),
    ("coltello", "cuteddu", "m"), ("camicia", "cammisa", "f"), ("scarpa", "scarpa", "f"),
    ("cappello", "cappeddu", "m"),
    ("bello", "beddu", None), ("brutto", "laidu", None), ("grande", "granni", None),
    ("piccolo", "nicu", None), ("caldo", "caudu", None), ("freddo", "friddu", None),
    ("buono", "bonu", None), ("cattivo", "tintu", None), ("dolce", "duci", None),
    ("triste", "tristi", None), ("vecchio", "vecchiu", None), ("sporco", "lordu", None),
    ("felice", "felici", None),
    ("ridere", "rìdiri", None), ("piangere", "chiànciri", None), ("mangiare", "manciari", None),
    ("bere", "bìviri", None), ("dormire", "dòrmiri", None), ("parlare", "parrari", None),
    ("andare", "jiri", None), ("fare", "fari", None), ("dire", "diri", None),
    ("vedere", "vìdiri", None), ("amare", "amari", None), ("sperare", "spirari", None),
    ("aspettare", "aspittari", None), ("temere", "timiri", None),
    ("guerra", "guerra", "f"), ("festa", "festa", "f"), ("regalo", "rialu", "m"),
    ("morte", "morti", "f"), ("vita", "vita", "f"), ("lavoro", "travagghiu", "m"),
    ("pericolo", "pirìculu", "m"), ("bacio", "vasuni", "m"), ("abbraccio", "abbrazzu", "m"),
    ("lacrima", "làcrima", "f"), ("buio", "scuru", "m"),
)


# =============================================================================
# Layer 6: CompL-it  (graph <https://klab.ilc.cnr.it/graphdb-compl-it/>)
# =============================================================================
# word -> senses; a sense is a definition or (definition, example). Relations
# name senses as "word" (= first sense) or "word#n". A word that is not a
# LiITA lemma needs ":noun" (etc.) and gets no complit-links triple.

COMPLIT_ANIMALS: dict[str, list] = {
    "entità": ["Ciò che esiste in qualunque forma, concreta o astratta."],
    "organismo": ["Essere vivente dotato di organi e di funzioni vitali."],
    "animale": ["Organismo vivente capace di muoversi e di nutrirsi di altri organismi.",
                ("Persona rozza o brutale.", "si è comportato da animale")],
    "mammifero": ["Animale vertebrato che allatta i piccoli e ha il corpo in genere coperto di peli."],
    "uccello": ["Animale vertebrato con il corpo coperto di penne, con becco e ali."],
    "pesce": ["Animale vertebrato acquatico che respira con le branchie e nuota con le pinne.",
              "Carne di pesce usata come cibo."],
    "rettile": ["Animale vertebrato a sangue freddo con la pelle coperta di squame."],
    "insetto": ["Piccolo animale con sei zampe e il corpo diviso in capo, torace e addome."],
    "serpente": ["Rettile dal corpo lungo e sottile, privo di zampe."],
    "vipera": ["Serpente velenoso dalla testa triangolare, comune in Italia.",
               ("Persona maligna e pettegola.", "ha una lingua da vipera")],
    "cobra": ["Serpente velenoso delle regioni tropicali che allarga il collo quando è minacciato."],
    "lucertola": ["Piccolo rettile dal corpo sottile e dalla lunga coda, che ama stare al sole."],
    "coccodrillo": ["Grande rettile dei fiumi tropicali con mascelle potenti."],
    "tartaruga": ["Rettile lento con il corpo protetto da un guscio duro."],
    "ragno": ["Piccolo animale con otto zampe che tesse la tela; il morso di alcune specie è velenoso."],
    "scorpione": ["Animale con otto zampe e una coda che termina con un pungiglione velenoso."],
    "medusa": ["Animale marino dal corpo gelatinoso e trasparente, con tentacoli urticanti; il contatto "
               "con alcune specie è velenoso."],
    "verme": ["Piccolo animale dal corpo molle e allungato, senza zampe.", "Persona spregevole."],
    "cane": ["Mammifero domestico dall'olfatto finissimo, allevato per compagnia, guardia o caccia.",
             ("Persona che svolge male il proprio mestiere.", "quel tenore è un cane")],
    "gatto": ["Piccolo mammifero domestico dal pelo morbido, abile cacciatore di topi."],
    "cavallo": ["Grande mammifero erbivoro usato per la corsa, il traino e l'equitazione.",
                "Pezzo degli scacchi che si muove a forma di L."],
    "leone": ["Grande felino africano; il maschio ha una folta criniera."],
    "lupo": ["Mammifero carnivoro selvatico simile a un grosso cane, che vive in branco."],
    "topo": ["Piccolo roditore dal muso appuntito e dalla lunga coda."],
    "maiale": ["Mammifero domestico allevato per la carne.", "Persona sporca o ingorda."],
    "pecora": ["Mammifero domestico allevato per la lana, il latte e la carne."],
    "mucca": ["Femmina del bue, allevata soprattutto per il latte."],
    "coniglio": ["Piccolo mammifero dalle lunghe orecchie, allevato per la carne e la pelliccia.",
                 ("Persona paurosa.", "non fare il coniglio")],
    "orso": ["Grande mammifero dal pelo folto che si nutre di carne, pesci e frutti."],
    "aquila": ["Grande uccello rapace dalla vista acutissima."],
    "passero": ["Piccolo uccello dal piumaggio bruno, comune nelle città."],
    "gallina": ["Femmina del gallo, allevata per le uova e la carne."],
    "colomba": ["Uccello dal piumaggio chiaro, simbolo di pace."],
    "corvo": ["Uccello dal piumaggio nero e dal verso rauco."],
    "trota": ["Pesce d'acqua dolce dalle carni pregiate."],
    "squalo": ["Grande pesce marino predatore con denti aguzzi."],
    "tonno": ["Grande pesce marino dalla carne rossa, molto pescato."],
    "salmone": ["Pesce che risale i fiumi per deporre le uova, dalla carne rosata."],
    "ape": ["Insetto che vive in sciami e produce miele e cera."],
    "vespa": ["Insetto simile all'ape, dal corpo giallo e nero, con un pungiglione velenoso.",
              "Motociclo leggero con ruote piccole."],
    "formica": ["Piccolo insetto che vive in colonie numerose."],
    "mosca": ["Insetto comune dalle ali trasparenti, spesso fastidioso."],
    "zanzara": ["Piccolo insetto la cui femmina punge per succhiare il sangue."],
    "farfalla": ["Insetto dalle grandi ali colorate."],
    "bassotto:noun": ["Cane dal corpo allungato e dalle zampe corte."],
    "barboncino:noun": ["Cane di piccola taglia dal pelo riccio."],
    "levriero:noun": ["Cane snello e velocissimo, allevato per la corsa."],
    "pianta": ["Organismo vegetale fornito di radici, fusto e foglie.",
               "Parte inferiore del piede, che poggia a terra.",
               "Disegno che rappresenta un edificio o una città visti dall'alto."],
    "erba": ["Pianta bassa dal fusto non legnoso."],
    "albero": ["Pianta dal fusto legnoso e alto che si ramifica.",
               "Asse che trasmette il movimento in una macchina."],
    "quercia": ["Albero dal legno duro che produce ghiande."],
    "pino": ["Albero sempreverde con foglie ad ago."],
    "olivo": ["Albero mediterraneo che produce le olive."],
    "melo": ["Albero che produce le mele."],
    "fiore": ["Parte colorata della pianta da cui si formano i frutti.",
              ("La parte migliore di qualcosa.", "il fiore della gioventù")],
    "rosa": ["Fiore profumato, spesso rosso, dal gambo spinoso."],
    "tulipano": ["Fiore a forma di calice, dai colori vivaci."],
    "margherita": ["Fiore di campo con petali bianchi e centro giallo."],
    "viola": ["Piccolo fiore profumato di colore violetto."],
    "giglio": ["Fiore bianco e profumato, simbolo di purezza."],
    "frutto": ["Parte della pianta che contiene i semi.", "Risultato, effetto di un'attività."],
    "mela": ["Frutto del melo, tondeggiante, dalla polpa croccante."],
    "pera": ["Frutto del pero, dalla polpa dolce e succosa."],
    "arancia": ["Frutto dell'arancio, dalla buccia arancione e dalla polpa succosa."],
    "banana": ["Frutto allungato dalla buccia gialla."],
    "ciliegia": ["Piccolo frutto rosso e tondo con il nocciolo."],
    "fragola": ["Piccolo frutto rosso e profumato."],
    "uva": ["Frutto della vite, formato da acini raccolti in grappoli."],
    "limone": ["Frutto giallo dal sapore acido."],
    "tronco": ["Fusto dell'albero.", "Parte centrale del corpo umano."],
    "ramo": ["Parte dell'albero che si sviluppa dal tronco."],
    "fusto": ["Parte della pianta che sostiene foglie e fiori."],
    "foglia": ["Organo della pianta, di solito verde e piatto.", "Lamina sottile di metallo."],
    "radice": ["Parte della pianta che la fissa al terreno.", "Origine, causa di qualcosa.",
               "Numero che, elevato a una potenza, dà un numero dato."],
    "petalo": ["Ciascuna delle parti colorate della corolla di un fiore."],
    "stelo": ["Fusto sottile che sostiene il fiore."],
    "corolla": ["Insieme dei petali di un fiore."],
    "polline": ["Polvere prodotta dai fiori per la riproduzione."],
    "bosco": ["Terreno coperto di alberi."],
    "gregge": ["Gruppo di pecore o di capre."],
    "sciame": ["Gruppo di api."],
    "branco": ["Gruppo di animali della stessa specie che vivono insieme."],
    "veleno": ["Sostanza che danneggia gravemente o uccide un organismo."],
}

COMPLIT_PEOPLE: dict[str, list] = {
    "persona": ["Essere umano considerato come individuo."],
    "uomo": ["Essere umano adulto di sesso maschile.", "Essere umano in generale."],
    "donna": ["Essere umano adulto di sesso femminile."],
    "bambino": ["Essere umano nei primi anni di vita."],
    "fanciullo": ["Bambino o ragazzo; termine letterario."],
    "ragazzo": ["Giovane di sesso maschile tra l'infanzia e l'età adulta."],
    "amico": ["Persona legata a un'altra da un rapporto di affetto e di fiducia."],
    "nemico": ["Persona ostile a qualcuno, che cerca di danneggiarlo."],
    "lavoratore": ["Persona che svolge un lavoro."],
    "medico": ["Persona laureata in medicina che cura i malati."],
    "dottore": ["Chi ha conseguito una laurea; comunemente, il medico."],
    "dentista": ["Medico che cura i denti."],
    "pittore": ["Chi dipinge quadri per professione o per passione."],
    "scrittore": ["Chi scrive opere letterarie."],
    "attore": ["Chi recita in teatro, al cinema o in televisione."],
    "muratore": ["Operaio che costruisce muri ed edifici."],
    "giornalista": ["Chi scrive articoli per i giornali o lavora nell'informazione."],
    "insegnante": ["Persona che insegna una materia in una scuola."],
    "autista": ["Chi guida un veicolo per mestiere."],
    "musicista": ["Chi compone o suona musica."],
    "soldato": ["Chi presta servizio nell'esercito."],
    "giocatore": ["Chi partecipa a un gioco o a una gara."],
    "parente": ["Persona legata a un'altra da un vincolo di sangue o di matrimonio."],
    "padre": ["Uomo che ha generato un figlio.", "Sacerdote, religioso."],
    "madre": ["Donna che ha generato un figlio."],
    "fratello": ["Persona di sesso maschile nata dagli stessi genitori."],
    "sorella": ["Persona di sesso femminile nata dagli stessi genitori."],
    "figlio": ["Persona considerata in rapporto ai genitori."],
    "zio": ["Fratello del padre o della madre."],
    "nonno": ["Padre del padre o della madre."],
    "famiglia": ["Gruppo formato dai genitori e dai figli.",
                 "Gruppo di animali o di piante con caratteri comuni."],
    "esercito": ["Insieme delle forze armate di terra di uno stato."],
    "squadra": ["Gruppo di persone che giocano o lavorano insieme."],
    "orchestra": ["Gruppo di musicisti che suonano insieme."],
    "amante": ["Persona con cui si ha una relazione amorosa."],
}

COMPLIT_EMOTIONS: dict[str, list] = {
    "stato": ["Condizione in cui si trova qualcuno o qualcosa.",
              "Comunità politica organizzata su un territorio."],
    "emozione": ["Reazione affettiva intensa e di breve durata a un evento."],
    "sentimento": ["Stato affettivo duraturo verso persone o cose."],
    "paura": ["Emozione provocata dalla presenza o dall'idea di un pericolo.",
              ("Timore che accada qualcosa di spiacevole.", "ho paura che domani piova")],
    "gioia": ["Emozione di viva contentezza.", "Pietra preziosa, gioiello.",
              ("Persona amata, chiamata con affetto.", "vieni qui, gioia mia")],
    "rabbia": ["Emozione violenta di chi è irritato o offeso.",
               "Malattia infettiva trasmessa dal morso di animali."],
    "tristezza": ["Stato d'animo di chi è triste e senza allegria."],
    "sorpresa": ["Emozione provocata da un fatto inatteso.",
                 ("Regalo o evento inaspettato preparato per qualcuno.", "una festa a sorpresa")],
    "disgusto": ["Forte avversione provocata da qualcosa di ripugnante."],
    "ansia": ["Stato di agitazione e di inquietudine per qualcosa che si teme."],
    "vergogna": ["Turbamento provato per un'azione ritenuta sconveniente."],
    "allegria": ["Stato d'animo lieto che si manifesta all'esterno."],
    "felicità": ["Stato di piena soddisfazione e serenità."],
    "angoscia": ["Stato di forte ansia e oppressione."],
    "spavento": ["Paura improvvisa e violenta."],
    "terrore": ["Paura fortissima che paralizza.", "Persona o cosa che incute grande paura."],
    "timore": ["Paura moderata; preoccupazione per qualcosa che potrebbe accadere."],
    "collera": ["Rabbia violenta e improvvisa."],
    "ira": ["Sdegno violento che spinge a reagire."],
    "furia": ["Rabbia cieca e incontrollata.", ("Grande fretta.", "uscì in tutta furia")],
    "stupore": ["Forte meraviglia che lascia senza parole."],
    "meraviglia": ["Sentimento di sorpresa davanti a qualcosa di straordinario.",
                   "Cosa che suscita ammirazione."],
    "euforia": ["Stato di eccitazione e di allegria intensa."],
    "malinconia": ["Tristezza vaga e persistente."],
    "ribrezzo": ["Sensazione di forte ripugnanza fisica."],
    "schifo": ["Sensazione di disgusto; cosa che provoca disgusto."],
    "delusione": ["Stato di chi vede svanire una speranza."],
    "disperazione": ["Stato di chi ha perso ogni speranza."],
    "preoccupazione": ["Stato di inquietudine per qualcosa che si teme."],
    "soddisfazione": ["Piacere che si prova quando si ottiene ciò che si desiderava."],
    "amore": ["Sentimento di profondo affetto e di attrazione verso una persona.",
              "Persona amata.", ("Forte interesse per qualcosa.", "l'amore per la musica")],
    "odio": ["Sentimento di forte avversione verso qualcuno o qualcosa."],
    "affetto": ["Sentimento di tenero attaccamento verso qualcuno."],
    "gelosia": ["Sentimento di ansia e di sospetto di chi teme di perdere la persona amata."],
    "nostalgia": ["Desiderio malinconico di persone, luoghi o tempi lontani."],
    "speranza": ["Attesa fiduciosa di qualcosa di buono."],
    "fiducia": ["Sentimento di sicurezza di chi si affida a qualcuno o a qualcosa."],
    "sfiducia": ["Mancanza di fiducia."],
    "invidia": ["Sentimento di dispiacere per il bene altrui."],
    "passione": ["Sentimento intenso e travolgente.", "La sofferenza di Cristo prima della morte."],
    "tenerezza": ["Sentimento di dolce affetto."],
    "pietà": ["Sentimento di compassione per chi soffre."],
    "ammirazione": ["Sentimento di stima e di meraviglia per qualcuno o qualcosa."],
    "aspettativa": ["Attesa di qualcosa che si ritiene debba accadere.",
                    ("Periodo di sospensione dal lavoro concesso a un dipendente.",
                     "è in aspettativa per un anno")],
    "attesa": ["Il tempo durante il quale si aspetta qualcosa o qualcuno."],
    "desiderio": ["Forte aspirazione a ottenere qualcosa."],
    "dolore": ["Sensazione fisica di sofferenza.", "Profonda sofferenza morale."],
    "fede": ["Adesione a una credenza religiosa.", "Anello nuziale."],
    "coraggio": ["Forza d'animo che permette di affrontare il pericolo."],
}

COMPLIT_THINGS: dict[str, list] = {
    "oggetto": ["Cosa concreta e inanimata, percepibile con i sensi."],
    "veicolo": ["Mezzo di trasporto per persone o cose."],
    "automobile": ["Veicolo a quattro ruote con motore, per il trasporto su strada."],
    "macchina": ["Apparecchio che compie un lavoro sfruttando una fonte di energia.", "Automobile."],
    "taxi": ["Automobile pubblica a noleggio con autista."],
    "bicicletta": ["Veicolo a due ruote mosso dai pedali."],
    "bici": ["Forma abbreviata di bicicletta."],
    "treno": ["Convoglio di vagoni trainato da una locomotiva su rotaie."],
    "autobus": ["Grande veicolo a motore per il trasporto pubblico di persone."],
    "aereo": ["Veicolo che vola, sostenuto da ali e spinto da motori."],
    "nave": ["Grande imbarcazione per la navigazione in mare."],
    "bastimento": ["Grande nave, soprattutto mercantile."],
    "camion": ["Grande autoveicolo per il trasporto di merci."],
    "motocicletta": ["Veicolo a due ruote con motore."],
    "strumento": ["Oggetto che serve a compiere un lavoro o un'operazione.",
                  "Oggetto che serve a produrre suoni musicali."],
    "martello": ["Attrezzo formato da una testa di metallo e da un manico, per battere e piantare chiodi."],
    "coltello": ["Strumento con una lama tagliente e un manico."],
    "forbici": ["Strumento formato da due lame incrociate, per tagliare."],
    "cacciavite": ["Attrezzo per avvitare e svitare le viti."],
    "sega": ["Attrezzo con una lama dentata per tagliare legno o metallo."],
    "chiave": ["Strumento di metallo che serve ad aprire e chiudere una serratura.",
               ("Ciò che permette di capire o di risolvere qualcosa.", "la chiave del mistero"),
               "Segno all'inizio del pentagramma che indica l'altezza delle note."],
    "chitarra": ["Strumento musicale a sei corde che si suona pizzicando."],
    "pianoforte": ["Strumento musicale a tastiera con corde percosse da martelletti."],
    "violino": ["Strumento musicale a quattro corde che si suona con l'archetto."],
    "tamburo": ["Strumento musicale a percussione formato da una cassa e da una membrana tesa."],
    "mobile": ["Oggetto di arredamento di una casa."],
    "tavolo": ["Mobile formato da un piano sostenuto da gambe."],
    "tavolino": ["Piccolo tavolo."],
    "sedia": ["Mobile con schienale per sedersi, per una sola persona."],
    "letto": ["Mobile su cui ci si sdraia per dormire."],
    "armadio": ["Mobile chiuso da ante in cui si ripongono abiti e oggetti."],
    "divano": ["Mobile imbottito su cui possono sedersi più persone."],
    "indumento": ["Capo di vestiario."],
    "camicia": ["Indumento con maniche e colletto, abbottonato sul davanti."],
    "giacca": ["Indumento con maniche che copre il busto e si indossa sopra la camicia."],
    "cappello": ["Copricapo di varia forma."],
    "scarpa": ["Calzatura che copre e protegge il piede."],
    "gonna": ["Indumento femminile che scende dalla vita verso le gambe."],
    "cappotto": ["Indumento pesante che si indossa d'inverno sopra gli altri abiti."],
    "edificio": ["Costruzione in muratura destinata ad abitazione o ad altri usi."],
    "casa": ["Edificio destinato ad abitazione.", ("Famiglia, stirpe.", "la casa reale"),
             ("Azienda, ditta.", "una casa editrice")],
    "abitazione": ["Luogo in cui si abita."],
    "chiesa": ["Edificio destinato al culto cristiano.", "Comunità dei fedeli cristiani."],
    "scuola": ["Istituzione in cui si impartisce l'insegnamento.",
               "Edificio in cui si svolgono le lezioni."],
    "ospedale": ["Edificio in cui si ricoverano e si curano i malati."],
    "castello": ["Grande edificio fortificato con mura e torri."],
    "palazzo": ["Grande edificio di più piani."],
    "torre": ["Costruzione alta e stretta, isolata o parte di un edificio."],
    "stazione": ["Edificio e impianti dove si fermano i treni.", "Emittente radiofonica o televisiva."],
    "stanza": ["Ciascuno degli ambienti di una casa."],
    "cucina": ["Stanza in cui si preparano i cibi.",
               ("Modo di preparare i cibi.", "la cucina italiana")],
    "bagno": ["Stanza con i servizi igienici.", "Immersione del corpo nell'acqua."],
    "camera": ["Stanza, specialmente quella in cui si dorme."],
    "tetto": ["Copertura di un edificio."],
    "muro": ["Struttura verticale in mattoni o pietra che delimita uno spazio."],
    "porta": ["Apertura in un muro per entrare e uscire, chiusa da un'anta.",
              "Nel calcio, lo spazio tra i pali in cui si deve mandare il pallone."],
    "finestra": ["Apertura in un muro che dà aria e luce."],
    "pavimento": ["Superficie su cui si cammina all'interno di un edificio."],
    "campanile": ["Torre in cui sono collocate le campane."],
    "altare": ["Tavola su cui si celebra la messa."],
    "navata": ["Parte interna di una chiesa, divisa da file di colonne."],
    "motore": ["Macchina che trasforma l'energia in movimento."],
    "ruota": ["Disco che gira intorno a un asse e permette il movimento dei veicoli."],
    "volante": ["Ruota con cui si guida l'automobile."],
    "portiera": ["Sportello di un veicolo."],
    "freno": ["Dispositivo per rallentare o fermare un veicolo."],
    "sedile": ["Posto a sedere in un veicolo."],
    "pedale": ["Leva azionata con il piede."],
    "manubrio": ["Barra con cui si guida la bicicletta."],
    "sella": ["Sedile della bicicletta o del cavallo."],
    "catena": ["Serie di anelli metallici collegati tra loro."],
    "schienale": ["Parte della sedia su cui si appoggia la schiena."],
    "bracciolo": ["Sostegno laterale su cui si appoggia il braccio."],
    "libro": ["Insieme di fogli stampati e rilegati."],
    "pagina": ["Ciascuna delle due facce di un foglio di un libro."],
    "copertina": ["Rivestimento esterno di un libro."],
    "capitolo": ["Ciascuna delle parti in cui è diviso un libro."],
    "indice": ["Elenco ordinato degli argomenti di un libro.", "Il secondo dito della mano."],
    "città": ["Centro abitato ampio e popoloso."],
    "strada": ["Via di comunicazione per veicoli e pedoni."],
    "via": ["Strada, specialmente in città.", "Modo, mezzo per ottenere qualcosa."],
    "piazza": ["Spazio aperto in una città, circondato da edifici."],
    "quartiere": ["Parte di una città."],
    "sostanza": ["Materia di cui è fatto qualcosa."],
    "materiale": ["Sostanza usata per costruire o fabbricare qualcosa."],
    "legno": ["Materia dura che forma il tronco e i rami degli alberi."],
    "vetro": ["Materiale duro e trasparente."],
    "ferro": ["Metallo duro e resistente di colore grigio."],
    "cuoio": ["Pelle animale conciata."],
    "carta": ["Materiale in fogli sottili fatto di fibre vegetali."],
}

COMPLIT_BODY_FOOD_TIME: dict[str, list] = {
    "corpo": ["L'insieme delle parti che formano un essere umano o un animale.", "Oggetto materiale."],
    "testa": ["Parte superiore del corpo umano, che contiene il cervello.",
              "La mente, l'intelligenza.",
              ("La parte anteriore o iniziale di qualcosa.", "in testa alla fila")],
    "collo": ["Parte del corpo che unisce la testa al tronco."],
    "braccio": ["Arto superiore del corpo umano, dalla spalla alla mano."],
    "gamba": ["Arto inferiore del corpo umano.", "Ciascuno dei sostegni di un mobile."],
    "cuore": ["Organo muscolare che pompa il sangue nel corpo.", "Sede dei sentimenti e degli affetti.",
              ("Parte centrale di qualcosa.", "il cuore della città")],
    "occhio": ["Organo della vista.", ("Attenzione, sorveglianza.", "tenere d'occhio")],
    "naso": ["Organo dell'olfatto, al centro del viso."],
    "bocca": ["Apertura del viso attraverso cui si mangia e si parla."],
    "orecchio": ["Organo dell'udito."],
    "cervello": ["Organo contenuto nella testa, sede delle funzioni nervose.", "Intelligenza."],
    "viso": ["Parte anteriore della testa."],
    "volto": ["Il viso di una persona."],
    "gomito": ["Articolazione tra il braccio e l'avambraccio."],
    "polso": ["Parte del corpo che unisce la mano all'avambraccio."],
    "mano": ["Parte terminale del braccio, con cinque dita.",
             ("Aiuto.", "dare una mano"), ("Strato di vernice.", "una mano di bianco")],
    "dito": ["Ciascuna delle parti mobili in cui terminano la mano e il piede."],
    "pollice": ["Il dito più grosso e corto della mano."],
    "palmo": ["Parte interna della mano."],
    "unghia": ["Lamina dura che copre la punta delle dita."],
    "piede": ["Parte terminale della gamba, su cui si poggia il corpo.",
              "Unità di misura di lunghezza.",
              ("Parte inferiore di qualcosa.", "ai piedi del monte")],
    "ginocchio": ["Articolazione tra la coscia e la gamba."],
    "caviglia": ["Articolazione tra la gamba e il piede."],
    "lingua": ["Organo muscolare della bocca.",
               "Sistema di segni usato da una comunità per comunicare."],
    "ala": ["Organo che permette agli uccelli di volare.", "Parte laterale di un edificio.",
            "Nel calcio, giocatore che gioca sulla fascia."],
    "becco": ["Parte dura e sporgente della bocca degli uccelli."],
    "penna": ["Ciascuna delle formazioni che coprono il corpo degli uccelli.",
              "Strumento per scrivere con l'inchiostro."],
    "zampa": ["Arto degli animali."],
    "pinna": ["Organo che permette ai pesci di nuotare."],
    "squama": ["Piccola lamina che copre la pelle di pesci e rettili."],
    "branchia": ["Organo respiratorio dei pesci."],
    "cibo": ["Ciò che si mangia per nutrirsi."],
    "bevanda": ["Liquido che si beve."],
    "acqua": ["Liquido trasparente, incolore e insapore, indispensabile alla vita."],
    "vino": ["Bevanda alcolica ottenuta dalla fermentazione dell'uva."],
    "latte": ["Liquido bianco prodotto dalle femmine dei mammiferi per nutrire i piccoli."],
    "caffè": ["Bevanda scura ottenuta dai semi tostati e macinati della pianta del caffè.",
              "Locale pubblico dove si consumano bevande."],
    "birra": ["Bevanda alcolica ottenuta dalla fermentazione dell'orzo."],
    "tè": ["Bevanda ottenuta dall'infusione delle foglie di una pianta orientale."],
    "pane": ["Alimento fatto con farina, acqua e lievito, cotto al forno."],
    "pasta": ["Alimento fatto di farina di grano e acqua, in varie forme.",
              "Piccolo dolce di pasticceria."],
    "formaggio": ["Alimento ottenuto dal latte cagliato."],
    "carne": ["Parte muscolare del corpo degli animali, usata come cibo.",
              "Il corpo umano, contrapposto allo spirito."],
    "riso": ["Cereale dai chicchi bianchi, coltivato in terreni allagati.",
             ("Il ridere.", "scoppiare in un riso improvviso")],
    "uovo": ["Corpo ovale deposto dalle femmine degli uccelli, usato come alimento."],
    "zucchero": ["Sostanza dolce ricavata dalla canna o dalla barbabietola."],
    "sale": ["Sostanza bianca usata per insaporire i cibi."],
    "colore": ["Qualità della luce riflessa dai corpi che l'occhio percepisce."],
    "rosso": ["Il colore del sangue."],
    "verde": ["Il colore dell'erba e delle foglie."],
    "giallo": ["Il colore del limone e dell'oro.", "Romanzo o film poliziesco."],
    "blu": ["Il colore del mare profondo."],
    "nero": ["Il colore più scuro, dovuto all'assenza di luce."],
    "bianco": ["Il colore della neve e del latte."],
    "azzurro": ["Il colore del cielo sereno."],
    "periodo": ["Spazio di tempo."],
    "giorno": ["Periodo di ventiquattro ore.", "Parte delle ventiquattro ore in cui c'è la luce del sole."],
    "settimana": ["Periodo di sette giorni."],
    "mese": ["Ciascuna delle dodici parti in cui è diviso l'anno."],
    "anno": ["Periodo di dodici mesi."],
    "stagione": ["Ciascuno dei quattro periodi in cui è diviso l'anno."],
    "primavera": ["Stagione tra l'inverno e l'estate, in cui la natura rifiorisce."],
    "estate": ["La stagione più calda dell'anno."],
    "autunno": ["Stagione tra l'estate e l'inverno, in cui cadono le foglie."],
    "inverno": ["La stagione più fredda dell'anno."],
    "lunedì": ["Primo giorno della settimana."],
    "martedì": ["Secondo giorno della settimana."],
    "mercoledì": ["Terzo giorno della settimana."],
    "giovedì": ["Quarto giorno della settimana."],
    "venerdì": ["Quinto giorno della settimana."],
    "sabato": ["Sesto giorno della settimana."],
    "domenica": ["Settimo e ultimo giorno della settimana, dedicato al riposo."],
    "mattina": ["Prima parte del giorno, dall'alba a mezzogiorno."],
    "pomeriggio": ["Parte del giorno tra il mezzogiorno e la sera."],
    "sera": ["Parte del giorno tra il tramonto e la notte."],
    "notte": ["Periodo di buio tra il tramonto e l'alba."],
}

COMPLIT_ABSTRACT: dict[str, list] = {
    "festa": ["Giorno o occasione di celebrazione e di divertimento."],
    "sorriso": ["Espressione lieta del viso, con un leggero movimento delle labbra."],
    "divertimento": ["Ciò che diverte e fa passare il tempo piacevolmente."],
    "entusiasmo": ["Stato di viva partecipazione e di slancio."],
    "successo": ["Esito favorevole di un'impresa."],
    "lacrima": ["Goccia di liquido che esce dagli occhi quando si piange."],
    "lutto": ["Dolore per la morte di una persona."],
    "solitudine": ["Condizione di chi è solo."],
    "morte": ["Fine della vita."],
    "vita": ["Condizione degli esseri viventi; periodo tra la nascita e la morte."],
    "malattia": ["Alterazione dello stato di salute."],
    "pericolo": ["Situazione in cui è possibile un danno."],
    "buio": ["Mancanza di luce."],
    "guerra": ["Conflitto armato tra stati o popoli."],
    "pace": ["Condizione di assenza di guerre e di conflitti."],
    "incubo": ["Sogno angoscioso.", "Persona o situazione che tormenta."],
    "puzza": ["Odore sgradevole."],
    "fango": ["Terra mescolata ad acqua."],
    "violenza": ["Uso della forza per costringere qualcuno o per fare del male."],
    "offesa": ["Parola o azione che ferisce la dignità di qualcuno."],
    "litigio": ["Discussione accesa tra due o più persone."],
    "regalo": ["Oggetto che si dona a qualcuno."],
    "scoperta": ["Il trovare qualcosa di nuovo o di sconosciuto."],
    "miracolo": ["Fatto straordinario che sembra superare le leggi della natura."],
    "futuro": ["Il tempo che verrà."],
    "progetto": ["Piano per realizzare qualcosa."],
    "promessa": ["Impegno a fare qualcosa."],
    "curiosità": ["Desiderio di sapere o di conoscere."],
    "viaggio": ["Spostamento da un luogo a un altro, spesso lontano."],
    "sicurezza": ["Condizione di chi è al riparo da pericoli."],
    "certezza": ["Convinzione sicura che qualcosa sia vero."],
    "lealtà": ["Qualità di chi è leale e sincero."],
    "bacio": ["Atto di toccare con le labbra in segno di affetto."],
    "abbraccio": ["Atto di stringere qualcuno tra le braccia."],
    "matrimonio": ["Unione tra due persone riconosciuta dalla legge."],
    "tradimento": ["Il venir meno alla fiducia di qualcuno."],
    "inganno": ["Azione con cui si fa credere il falso."],
    "sospetto": ["Dubbio sulla colpa o sulle intenzioni di qualcuno."],
    "premio": ["Riconoscimento dato a chi si distingue."],
    "sole": ["La stella intorno alla quale ruota la Terra.", "La luce e il calore del sole."],
    "luna": ["Satellite naturale della Terra."],
    "stella": ["Corpo celeste luminoso.", "Persona famosa nel mondo dello spettacolo."],
    "fuoco": ["Combustione che produce fiamma, luce e calore.", "Sparo di armi."],
    "terra": ["Il pianeta su cui viviamo.", "Suolo, terreno."],
    "neve": ["Precipitazione di cristalli di ghiaccio."],
    "pioggia": ["Acqua che cade dalle nuvole in gocce."],
    "vento": ["Movimento di masse d'aria."],
    "lavoro": ["Attività svolta per produrre qualcosa o per guadagnare."],
    "inizio": ["Il momento in cui qualcosa comincia."],
    "principio": ["Inizio.", "Norma fondamentale."],
    "fine": ["Il momento o il punto in cui qualcosa termina.", "Scopo, obiettivo."],
    "termine": ["Fine, conclusione.", "Parola, vocabolo."],
    "capo": ["Testa.", "Persona che comanda un gruppo."],
    "gioco": ["Attività svolta per divertimento."],
    "obiettivo": ["Scopo che si vuole raggiungere."],
}

COMPLIT_ADJECTIVES: dict[str, list] = {
    "caldo": ["Che ha una temperatura elevata.",
              ("Affettuoso, cordiale.", "un'accoglienza calda")],
    "freddo": ["Che ha una temperatura bassa.", "Distaccato, privo di calore umano."],
    "alto": ["Che si sviluppa molto in altezza."],
    "basso": ["Che ha poca altezza."],
    "grande": ["Che supera la misura ordinaria per dimensioni o importanza."],
    "piccolo": ["Che ha dimensioni ridotte."],
    "bello": ["Che piace alla vista o allo spirito."],
    "brutto": ["Che è sgradevole a vedersi."],
    "carino": ["Grazioso, piacevole a vedersi."],
    "orribile": ["Che suscita orrore; bruttissimo."],
    "terribile": ["Che incute terrore; molto grave."],
    "veloce": ["Che si muove con grande rapidità."],
    "rapido": ["Che avviene o si muove in poco tempo."],
    "lento": ["Che si muove con poca velocità."],
    "felice": ["Che prova gioia e soddisfazione."],
    "contento": ["Soddisfatto, lieto."],
    "triste": ["Che prova o esprime tristezza."],
    "malinconico": ["Che prova o ispira malinconia."],
    "infelice": ["Che non è felice; sfortunato."],
    "lungo": ["Che ha una grande estensione nello spazio o nel tempo."],
    "corto": ["Che ha poca lunghezza."],
    "buono": ["Che ha qualità morali positive.", "Che ha un sapore gradevole."],
    "cattivo": ["Che fa il male o ha cattive intenzioni."],
    "giovane": ["Che ha pochi anni."],
    "vecchio": ["Che ha molti anni."],
    "forte": ["Che ha molta forza fisica o morale."],
    "debole": ["Che ha poca forza."],
    "pesante": ["Che ha un peso elevato."],
    "leggero": ["Che pesa poco."],
    "facile": ["Che si fa o si capisce senza fatica."],
    "difficile": ["Che richiede fatica o abilità."],
    "vivo": ["Che è in vita."],
    "morto": ["Che ha cessato di vivere."],
    "vero": ["Che corrisponde alla realtà."],
    "falso": ["Che non corrisponde alla realtà."],
    "presente": ["Che si trova nel luogo di cui si parla."],
    "assente": ["Che non si trova nel luogo in cui dovrebbe essere."],
    "possibile": ["Che può accadere o essere fatto."],
    "impossibile": ["Che non può accadere o essere fatto."],
    "utile": ["Che serve a qualcosa."],
    "inutile": ["Che non serve a nulla."],
    "giusto": ["Conforme alla giustizia o alla verità."],
    "ingiusto": ["Contrario alla giustizia."],
    "dolce": ["Che ha un sapore simile a quello dello zucchero.", "Gentile, affettuoso."],
    "amaro": ["Che ha un sapore aspro e sgradevole.", "Che provoca dolore o delusione."],
    "velenoso": ["Che contiene veleno o produce gli effetti di un veleno."],
    "pauroso": ["Che ha paura facilmente.", "Che fa paura."],
    "coraggioso": ["Che ha coraggio."],
    "pericoloso": ["Che costituisce un pericolo."],
    "sporco": ["Che non è pulito."],
    "pulito": ["Privo di sporcizia."],
    "allegro": ["Pieno di allegria."],
    "fedele": ["Che mantiene la parola data e non tradisce."],
    "incredibile": ["Che non si può credere; straordinario."],
    "improvviso": ["Che accade senza essere previsto."],
    "ripugnante": ["Che provoca disgusto."],
    "caro": ["Che è amato.", "Che costa molto."],
    "gioioso": ["Pieno di gioia."],
    "amabile": ["Degno di essere amato; gentile."],
    "affidabile": ["Di cui ci si può fidare."],
    "spaventoso": ["Che fa paura."],
    "nervoso": ["Che si irrita facilmente."],
}

COMPLIT_VERBS: dict[str, list] = {
    "essere": ["Esistere; trovarsi in un luogo o in una condizione."],
    "avere": ["Possedere qualcosa."],
    "andare": ["Muoversi verso un luogo."],
    "fare": ["Compiere un'azione; produrre qualcosa."],
    "venire": ["Muoversi verso il luogo in cui si trova chi parla."],
    "amare": ["Provare amore per qualcuno.", ("Gradire molto qualcosa.", "amare la musica")],
    "odiare": ["Provare odio verso qualcuno o qualcosa."],
    "temere": ["Avere paura di qualcuno o di qualcosa.",
               ("Essere sensibile a qualcosa che può danneggiare.", "una pianta che teme il freddo")],
    "piangere": ["Versare lacrime per dolore o per commozione."],
    "ridere": ["Esprimere allegria con il viso e con la voce."],
    "sperare": ["Attendere con fiducia qualcosa di buono."],
    "aspettare": ["Restare in un luogo finché qualcuno arrivi o qualcosa accada."],
    "credere": ["Ritenere vero qualcosa.", "Avere fede religiosa."],
    "fidare": ["Avere fiducia in qualcuno o in qualcosa."],
    "vincere": ["Risultare superiore in una gara o in uno scontro."],
    "perdere": ["Non avere più qualcosa che si possedeva.",
                "Essere sconfitto in una gara o in uno scontro."],
    "entrare": ["Andare dentro un luogo."],
    "uscire": ["Andare fuori da un luogo."],
    "salire": ["Andare verso l'alto."],
    "scendere": ["Andare verso il basso."],
    "aprire": ["Rendere accessibile ciò che è chiuso."],
    "chiudere": ["Impedire l'accesso; serrare ciò che è aperto."],
    "iniziare": ["Dare principio a qualcosa."],
    "cominciare": ["Dare inizio a qualcosa; avere inizio."],
    "finire": ["Portare a termine qualcosa.", "Avere termine, cessare."],
    "terminare": ["Portare a compimento; concludersi."],
    "guardare": ["Rivolgere lo sguardo verso qualcosa."],
    "osservare": ["Guardare con attenzione.", "Rispettare una regola."],
    "vedere": ["Percepire con gli occhi.", "Capire, rendersi conto.",
               ("Incontrare qualcuno.", "ci vediamo domani")],
    "dire": ["Esprimere con le parole."],
    "parlare": ["Esprimersi con le parole."],
    "urlare": ["Gridare con forza."],
    "tagliare": ["Dividere con uno strumento affilato."],
    "scrivere": ["Tracciare parole su una superficie."],
    "dormire": ["Essere immerso nel sonno."],
    "battere": ["Colpire ripetutamente."],
    "spaventare": ["Provocare paura in qualcuno."],
    "stupire": ["Suscitare meraviglia."],
    "abbracciare": ["Stringere tra le braccia."],
    "baciare": ["Toccare con le labbra in segno di affetto."],
    "vomitare": ["Espellere dalla bocca il contenuto dello stomaco."],
}

COMPLIT_SENSES: dict[str, list] = {}
for _group in (COMPLIT_ANIMALS, COMPLIT_PEOPLE, COMPLIT_EMOTIONS, COMPLIT_THINGS,
               COMPLIT_BODY_FOOD_TIME, COMPLIT_ABSTRACT, COMPLIT_ADJECTIVES, COMPLIT_VERBS):
    for _key, _senses in _group.items():
        if _key in COMPLIT_SENSES:
            raise ValueError(f"CompL-it word listed twice: {_key}")
        COMPLIT_SENSES[_key] = _senses

# --- sense relations ---------------------------------------------------------
# general sense -> more specific senses: emitted as
#   ?specific lexinfo:hyponym ?general   and   ?general lexinfo:hypernym ?specific
HYPONYMS: dict[str, tuple[str, ...]] = {
    "entità": ("organismo", "oggetto", "stato", "periodo", "colore", "sostanza"),
    "organismo": ("animale", "pianta", "persona"),
    "animale": ("mammifero", "uccello", "pesce", "rettile", "insetto", "ragno", "scorpione",
                "medusa", "verme"),
    "mammifero": ("cane", "gatto", "cavallo", "leone", "lupo", "topo", "maiale", "pecora",
                  "mucca", "coniglio", "orso"),
    "cane": ("bassotto:noun", "barboncino:noun", "levriero:noun"),
    "uccello": ("aquila", "passero", "gallina", "colomba", "corvo"),
    "pesce": ("trota", "squalo", "tonno", "salmone"),
    "rettile": ("serpente", "lucertola", "coccodrillo", "tartaruga"),
    "serpente": ("vipera", "cobra"),
    "insetto": ("ape", "vespa", "formica", "mosca", "zanzara", "farfalla"),
    "pianta": ("albero", "erba"),
    "albero": ("quercia", "pino", "olivo", "melo"),
    "fiore": ("rosa", "tulipano", "margherita", "viola", "giglio"),
    "frutto": ("mela", "pera", "arancia", "banana", "ciliegia", "fragola", "uva", "limone"),
    "persona": ("uomo", "donna", "bambino", "ragazzo", "amico", "nemico", "lavoratore", "parente"),
    "lavoratore": ("medico", "pittore", "scrittore", "attore", "muratore", "giornalista",
                   "insegnante", "autista", "musicista", "soldato"),
    "medico": ("dentista",),
    "parente": ("padre", "madre", "fratello", "sorella", "figlio", "zio", "nonno"),
    "stato": ("emozione", "sentimento", "felicità"),
    "emozione": ("paura", "gioia", "rabbia", "tristezza", "sorpresa", "disgusto", "ansia",
                 "vergogna", "angoscia", "delusione", "soddisfazione"),
    "paura": ("spavento", "terrore", "timore"),
    "gioia": ("allegria", "euforia"),
    "rabbia": ("collera", "ira", "furia"),
    "tristezza": ("malinconia", "disperazione", "dolore#2"),
    "sorpresa": ("stupore", "meraviglia"),
    "disgusto": ("ribrezzo", "schifo"),
    "sentimento": ("amore", "odio", "affetto", "gelosia", "nostalgia", "speranza", "fiducia",
                   "invidia", "passione", "tenerezza", "pietà", "ammirazione"),
    "oggetto": ("veicolo", "strumento", "strumento#2", "mobile", "indumento", "edificio"),
    "veicolo": ("automobile", "macchina#2", "bicicletta", "treno", "autobus", "aereo", "nave",
                "camion", "motocicletta"),
    "automobile": ("taxi",),
    "motocicletta": ("vespa#2",),
    "strumento": ("martello", "coltello", "forbici", "cacciavite", "sega", "chiave"),
    "strumento#2": ("chitarra", "pianoforte", "violino", "tamburo"),
    "mobile": ("tavolo", "sedia", "letto", "armadio", "divano"),
    "tavolo": ("tavolino",),
    "indumento": ("camicia", "giacca", "cappello", "scarpa", "gonna", "cappotto"),
    "edificio": ("casa", "chiesa", "scuola#2", "ospedale", "castello", "palazzo", "torre",
                 "stazione"),
    "stanza": ("cucina", "bagno", "camera"),
    "colore": ("rosso", "verde", "giallo", "blu", "nero", "bianco", "azzurro"),
    "sostanza": ("cibo", "bevanda", "materiale", "veleno"),
    "bevanda": ("acqua", "vino", "latte", "caffè", "birra", "tè"),
    "cibo": ("pane", "pasta", "formaggio", "carne", "riso", "uovo", "zucchero", "sale", "pesce#2"),
    "materiale": ("legno", "vetro", "ferro", "cuoio", "carta"),
    "periodo": ("giorno", "settimana", "mese", "anno", "stagione"),
    "stagione": ("primavera", "estate", "autunno", "inverno"),
    "giorno": ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"),
    "dito": ("pollice", "indice#2"),
}

# whole -> parts: ?part lexinfo:partMeronym ?whole ; ?whole lexinfo:partHolonym ?part
PARTS: dict[str, tuple[str, ...]] = {
    "corpo": ("testa", "collo", "tronco#2", "braccio", "gamba", "cuore"),
    "testa": ("occhio", "naso", "bocca", "orecchio", "cervello", "viso"),
    "braccio": ("mano", "gomito", "polso"),
    "mano": ("dito", "palmo", "unghia"),
    "gamba": ("piede", "ginocchio", "caviglia"),
    "albero": ("tronco", "ramo", "foglia", "radice"),
    "pianta": ("radice", "fusto", "foglia", "fiore"),
    "fiore": ("petalo", "stelo", "corolla", "polline"),
    "casa": ("tetto", "muro", "porta", "finestra", "stanza", "pavimento"),
    "automobile": ("motore", "ruota", "volante", "portiera", "freno", "sedile"),
    "bicicletta": ("ruota", "pedale", "manubrio", "sella", "catena", "freno"),
    "libro": ("pagina", "copertina", "capitolo", "indice"),
    "sedia": ("schienale", "gamba#2", "bracciolo"),
    "uccello": ("ala", "becco", "penna", "zampa"),
    "pesce": ("pinna", "squama", "branchia"),
    "chiesa": ("campanile", "altare", "navata"),
    "città": ("strada", "piazza", "quartiere"),
    "giorno": ("mattina", "pomeriggio", "sera", "notte"),
    "settimana": ("giorno",),
    "anno": ("mese", "stagione", "settimana"),
}

# group -> members: ?member lexinfo:memberMeronym ?group ; ?group lexinfo:memberHolonym ?member
MEMBERS: dict[str, tuple[str, ...]] = {
    "famiglia": ("padre", "madre", "figlio", "fratello", "sorella"),
    "gregge": ("pecora",),
    "sciame": ("ape",),
    "branco": ("lupo",),
    "bosco": ("albero",),
    "orchestra": ("musicista",),
    "esercito": ("soldato",),
    "squadra": ("giocatore",),
}

# symmetric relations, materialised in both directions
SYNONYMS: tuple[tuple[str, str], ...] = (
    ("paura", "timore"), ("rabbia", "collera"), ("rabbia", "ira"), ("gioia", "felicità"),
    ("gioia", "allegria"), ("tristezza", "malinconia"), ("casa", "abitazione"),
    ("automobile", "macchina#2"), ("viso", "volto"), ("bambino", "fanciullo"),
    ("amore", "affetto"), ("disgusto", "ribrezzo"), ("disgusto", "schifo"),
    ("sorpresa", "stupore"), ("aspettativa", "attesa"), ("bello", "carino"),
    ("veloce", "rapido"), ("felice", "contento"), ("triste", "malinconico"),
    ("strada", "via"), ("inizio", "principio"), ("fine", "termine"), ("medico", "dottore"),
    ("bicicletta", "bici"), ("nave", "bastimento"), ("terrore", "spavento"),
    ("iniziare", "cominciare"), ("finire", "terminare"), ("guardare", "osservare"),
    ("capo", "testa"), ("orribile", "terribile"),
)
ANTONYMS: tuple[tuple[str, str], ...] = (  # lexinfo:antonym
    ("amore", "odio"), ("gioia", "tristezza"), ("fiducia", "sfiducia"), ("coraggio", "paura"),
    ("pace", "guerra"), ("inizio", "fine"), ("giorno#2", "notte"), ("vita", "morte"),
    ("amico", "nemico"), ("vincere", "perdere#2"), ("amare", "odiare"), ("entrare", "uscire"),
    ("salire", "scendere"), ("aprire", "chiudere"), ("speranza", "disperazione"),
)
ANTONYMS_GRAD: tuple[tuple[str, str], ...] = (  # compl-it#antonymGrad (gradable)
    ("caldo", "freddo"), ("alto", "basso"), ("grande", "piccolo"), ("bello", "brutto"),
    ("veloce", "lento"), ("felice", "triste"), ("lungo", "corto"), ("buono", "cattivo"),
    ("giovane", "vecchio"), ("forte", "debole"), ("pesante", "leggero"), ("facile", "difficile"),
    ("dolce", "amaro"), ("sporco", "pulito"),
)
ANTONYMS_COMP: tuple[tuple[str, str], ...] = (  # compl-it#antonymComp (complementary)
    ("vivo", "morto"), ("vero", "falso"), ("presente", "assente"), ("possibile", "impossibile"),
    ("utile", "inutile"), ("giusto", "ingiusto"),
)
USED_FOR: tuple[tuple[str, str], ...] = (  # compl-it#usedFor: artefact -> activity
    ("coltello", "tagliare"), ("forbici", "tagliare"), ("sega", "tagliare"),
    ("martello", "battere"), ("chiave", "aprire"), ("penna#2", "scrivere"), ("letto", "dormire"),
)
MADE_OF: tuple[tuple[str, str], ...] = (  # compl-it#madeOf: object -> material
    ("tavolo", "legno"), ("finestra", "vetro"), ("scarpa", "cuoio"), ("libro", "carta"),
    ("martello", "ferro"), ("sedia", "legno"), ("armadio", "legno"),
)

COMPLIT_POS = {"noun": "NOUN", "verb": "VERB", "adjective": "ADJ", "adverb": "ADV"}
FIRST_SENSE_NUMBER = 70001


# =============================================================================
# Layer 7: inflected forms  (graph <http://liita.it/data/morphology>, our choice)
# =============================================================================
PERSONS = (("1s", "firstPerson", "singular"), ("2s", "secondPerson", "singular"),
           ("3s", "thirdPerson", "singular"), ("1p", "firstPerson", "plural"),
           ("2p", "secondPerson", "plural"), ("3p", "thirdPerson", "plural"))
# paradigm cell -> (lexinfo:tense or None, lexinfo:verbFormMood)
FINITE_CELLS = {
    "ind-pres": ("present", "indicative"),
    "ind-impf": ("imperfect", "indicative"),
    "ind-past": ("past", "indicative"),  # passato remoto
    "ind-fut": ("future", "indicative"),
    "sub-pres": ("present", "subjunctive"),
    "cnd-pres": ("present", "conditional"),
}

# Irregular verbs, written out (six persons per finite cell).
IRREGULAR_VERBS: dict[str, dict[str, str]] = {
    "essere": {
        "ind-pres": "sono sei è siamo siete sono",
        "ind-impf": "ero eri era eravamo eravate erano",
        "ind-past": "fui fosti fu fummo foste furono",
        "ind-fut": "sarò sarai sarà saremo sarete saranno",
        "sub-pres": "sia sia sia siamo siate siano",
        "cnd-pres": "sarei saresti sarebbe saremmo sareste sarebbero",
        "ger": "essendo", "part": "stato",
    },
    "avere": {
        "ind-pres": "ho hai ha abbiamo avete hanno",
        "ind-impf": "avevo avevi aveva avevamo avevate avevano",
        "ind-past": "ebbi avesti ebbe avemmo aveste ebbero",
        "ind-fut": "avrò avrai avrà avremo avrete avranno",
        "sub-pres": "abbia abbia abbia abbiamo abbiate abbiano",
        "cnd-pres": "avrei avresti avrebbe avremmo avreste avrebbero",
        "ger": "avendo", "part": "avuto",
    },
    "andare": {
        "ind-pres": "vado vai va andiamo andate vanno",
        "ind-impf": "andavo andavi andava andavamo andavate andavano",
        "ind-past": "andai andasti andò andammo andaste andarono",
        "ind-fut": "andrò andrai andrà andremo andrete andranno",
        "sub-pres": "vada vada vada andiamo andiate vadano",
        "cnd-pres": "andrei andresti andrebbe andremmo andreste andrebbero",
        "ger": "andando", "part": "andato",
    },
    "fare": {
        "ind-pres": "faccio fai fa facciamo fate fanno",
        "ind-impf": "facevo facevi faceva facevamo facevate facevano",
        "ind-past": "feci facesti fece facemmo faceste fecero",
        "ind-fut": "farò farai farà faremo farete faranno",
        "sub-pres": "faccia faccia faccia facciamo facciate facciano",
        "cnd-pres": "farei faresti farebbe faremmo fareste farebbero",
        "ger": "facendo", "part": "fatto",
    },
    "vedere": {
        "ind-pres": "vedo vedi vede vediamo vedete vedono",
        "ind-impf": "vedevo vedevi vedeva vedevamo vedevate vedevano",
        "ind-past": "vidi vedesti vide vedemmo vedeste videro",
        "ind-fut": "vedrò vedrai vedrà vedremo vedrete vedranno",
        "sub-pres": "veda veda veda vediamo vediate vedano",
        "cnd-pres": "vedrei vedresti vedrebbe vedremmo vedreste vedrebbero",
        "ger": "vedendo", "part": "visto",
    },
    "dire": {
        "ind-pres": "dico dici dice diciamo dite dicono",
        "ind-impf": "dicevo dicevi diceva dicevamo dicevate dicevano",
        "ind-past": "dissi dicesti disse dicemmo diceste dissero",
        "ind-fut": "dirò dirai dirà diremo direte diranno",
        "sub-pres": "dica dica dica diciamo diciate dicano",
        "cnd-pres": "direi diresti direbbe diremmo direste direbbero",
        "ger": "dicendo", "part": "detto",
    },
    "venire": {
        "ind-pres": "vengo vieni viene veniamo venite vengono",
        "ind-impf": "venivo venivi veniva venivamo venivate venivano",
        "ind-past": "venni venisti venne venimmo veniste vennero",
        "ind-fut": "verrò verrai verrà verremo verrete verranno",
        "sub-pres": "venga venga venga veniamo veniate vengano",
        "cnd-pres": "verrei verresti verrebbe verremmo verreste verrebbero",
        "ger": "venendo", "part": "venuto",
    },
    "piangere": {
        "ind-pres": "piango piangi piange piangiamo piangete piangono",
        "ind-impf": "piangevo piangevi piangeva piangevamo piangevate piangevano",
        "ind-past": "piansi piangesti pianse piangemmo piangeste piansero",
        "ind-fut": "piangerò piangerai piangerà piangeremo piangerete piangeranno",
        "sub-pres": "pianga pianga pianga piangiamo piangiate piangano",
        "cnd-pres": "piangerei piangeresti piangerebbe piangeremmo piangereste piangerebbero",
        "ger": "piangendo", "part": "pianto",
    },
    "ridere": {
        "ind-pres": "rido ridi ride ridiamo ridete ridono",
        "ind-impf": "ridevo ridevi rideva ridevamo ridevate ridevano",
        "ind-past": "risi ridesti rise ridemmo rideste risero",
        "ind-fut": "riderò riderai riderà rideremo riderete rideranno",
        "sub-pres": "rida rida rida ridiamo ridiate ridano",
        "cnd-pres": "riderei rideresti riderebbe rideremmo ridereste riderebbero",
        "ger": "ridendo", "part": "riso",
    },
}
#: Regular verbs: conjugated by :func:`regular_paradigm` ("isc" = finire type).
REGULAR_VERBS: dict[str, str] = {
    "parlare": "are", "amare": "are", "temere": "ere",
    "dormire": "ire", "finire": "isc",
}
#: Extra (alternative) forms: (cell-person code, form).
ALTERNATIVE_FORMS: dict[str, tuple[tuple[str, str], ...]] = {
    "temere": (("ind-past-1s", "temetti"), ("ind-past-3s", "temette"), ("ind-past-3p", "temettero")),
    "vedere": (("part", "veduto"),),
}

_ENDINGS = {
    "are": {"ind-pres": "o i a iamo ate ano", "ind-impf": "avo avi ava avamo avate avano",
            "ind-past": "ai asti ò ammo aste arono", "ind-fut": "erò erai erà eremo erete eranno",
            "sub-pres": "i i i iamo iate ino",
            "cnd-pres": "erei eresti erebbe eremmo ereste erebbero", "ger": "ando", "part": "ato"},
    "ere": {"ind-pres": "o i e iamo ete ono", "ind-impf": "evo evi eva evamo evate evano",
            "ind-past": "ei esti é emmo este erono", "ind-fut": "erò erai erà eremo erete eranno",
            "sub-pres": "a a a iamo iate ano",
            "cnd-pres": "erei eresti erebbe eremmo ereste erebbero", "ger": "endo", "part": "uto"},
    "ire": {"ind-pres": "o i e iamo ite ono", "ind-impf": "ivo ivi iva ivamo ivate ivano",
            "ind-past": "ii isti ì immo iste irono", "ind-fut": "irò irai irà iremo irete iranno",
            "sub-pres": "a a a iamo iate ano",
            "cnd-pres": "irei iresti irebbe iremmo ireste irebbero", "ger": "endo", "part": "ito"},
}
_ENDINGS["isc"] = dict(_ENDINGS["ire"], **{"ind-pres": "isco isci isce iamo ite iscono",
                                          "sub-pres": "isca isca isca iamo iate iscano"})


def regular_paradigm(verb: str, kind: str) -> dict[str, str]:
    """The paradigm of a regular verb (no spelling adjustments: pick verbs that need none)."""
    stem = verb[:-3]
    return {cell: " ".join(stem + e for e in endings.split())
            for cell, endings in _ENDINGS[kind].items()}


# noun -> (singular, gender of singular, plural, gender of plural)
NOUN_FORMS: dict[str, tuple[str, str, str, str]] = {
    "casa": ("casa", "feminine", "case", "feminine"),
    "cane": ("cane", "masculine", "cani", "masculine"),
    "gatto": ("gatto", "masculine", "gatti", "masculine"),
    "uomo": ("uomo", "masculine", "uomini", "masculine"),
    "donna": ("donna", "feminine", "donne", "feminine"),
    "mano": ("mano", "feminine", "mani", "feminine"),
    "uovo": ("uovo", "masculine", "uova", "feminine"),
    "braccio": ("braccio", "masculine", "braccia", "feminine"),
    "dito": ("dito", "masculine", "dita", "feminine"),
    "amico": ("amico", "masculine", "amici", "masculine"),
    "città": ("città", "feminine", "città", "feminine"),
    "bacio": ("bacio", "masculine", "baci", "masculine"),
    "occhio": ("occhio", "masculine", "occhi", "masculine"),
    "paura": ("paura", "feminine", "paure", "feminine"),
    "libro": ("libro", "masculine", "libri", "masculine"),
}
# adjective -> masculine singular, feminine singular, masculine plural, feminine plural
ADJECTIVE_FORMS: dict[str, str] = {
    "bello": "bello bella belli belle",
    "buono": "buono buona buoni buone",
    "vecchio": "vecchio vecchia vecchi vecchie",
    "lungo": "lungo lunga lunghi lunghe",
    "felice": "felice felice felici felici",
    "grande": "grande grande grandi grandi",
}
FEATURE_LABELS: dict[str, tuple[str, str]] = {  # lexinfo individual -> (class, English label)
    "present": ("Tense", "present"), "imperfect": ("Tense", "imperfect"),
    "past": ("Tense", "past"), "future": ("Tense", "future"),
    "indicative": ("VerbFormMood", "indicative"), "subjunctive": ("VerbFormMood", "subjunctive"),
    "conditional": ("VerbFormMood", "conditional"), "infinitive": ("VerbFormMood", "infinitive"),
    "gerundive": ("VerbFormMood", "gerundive"), "participle": ("VerbFormMood", "participle"),
    "firstPerson": ("Person", "first person"), "secondPerson": ("Person", "second person"),
    "thirdPerson": ("Person", "third person"),
    "singular": ("Number", "singular"), "plural": ("Number", "plural"),
    "masculine": ("Gender", "masculine"), "feminine": ("Gender", "feminine"),
}
POS_LABELS = {"noun": "noun", "verb": "verb", "adjective": "adjective", "adverb": "adverb"}


# =============================================================================
# RDF helpers
# =============================================================================
def iri(value: str) -> str:
    """An IRI term; refuses characters that are not allowed in a Turtle IRIREF."""
    bad = set('<>"{}|^`\\ ') | {chr(c) for c in range(0x21)}
    if any(ch in bad for ch in value):
        raise ValueError(f"unsafe IRI: {value!r}")
    return f"<{value}>"


def c(curie: str) -> str:
    """``prefix:local`` -> IRI term (prefixes of :data:`FILE_PREFIXES`)."""
    prefix, _, local = curie.partition(":")
    return iri(FILE_PREFIXES[prefix] + local)


def _escape(text: str) -> str:
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ch == "\x7f":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return "".join(out)


def lit(text: str, lang: str | None = None) -> str:
    """A plain (xsd:string) or language-tagged literal."""
    return f'"{_escape(text)}"' + (f"@{lang}" if lang else "")


def float_lit(value: float) -> str:
    text = f"{value:.3f}".rstrip("0")
    text = text + "0" if text.endswith(".") else text
    text = "0.0" if text == "-0.0" else text
    return f'"{text}"^^{c("xsd:float")}'


def slug(word: str) -> str:
    """ASCII IRI segment for a word: accents stripped, spaces/apostrophes to '_'."""
    plain = unicodedata.normalize("NFD", word)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    out = "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in plain)
    if not out:
        raise ValueError(f"empty slug for {word!r}")
    return out


class Dataset:
    """Quads grouped by graph; serialised as sorted, stable TriG."""

    def __init__(self) -> None:
        self.graphs: dict[str, set[tuple[str, str, str]]] = defaultdict(set)

    def add(self, graph: str, s: str, p: str, o: str) -> None:
        self.graphs[graph].add((s, p, o))

    def __len__(self) -> int:
        return sum(len(t) for t in self.graphs.values())

    # -- serialisation --------------------------------------------------------
    _LOCAL_OK = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

    def _compact(self, term: str) -> str:
        if term.startswith("<"):
            value = term[1:-1]
            for prefix, ns in FILE_PREFIXES.items():
                local = value[len(ns):]
                if value.startswith(ns) and local and local[0].isalpha() \
                        and set(local) <= self._LOCAL_OK:
                    return f"{prefix}:{local}"
            return term
        if "^^<" in term:
            lex, _, dt = term.rpartition("^^")
            return f"{lex}^^{self._compact(dt)}"
        return term

    @staticmethod
    def _key(term: str) -> tuple:
        """Natural order: digit runs compare as numbers (``…/2`` before ``…/10``)."""
        return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                     for part in re.split(r"(\d+)", term))

    def to_trig(self, header: str) -> str:
        rdf_type = c("rdf:type")
        lines = [header.rstrip("\n"), ""]
        for prefix, ns in FILE_PREFIXES.items():
            lines.append(f"@prefix {prefix}: <{ns}> .")
        for graph in sorted(self.graphs):
            lines.append("")
            lines.append(f"{iri(graph)} {{")
            by_subject: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
            for s, p, o in self.graphs[graph]:
                by_subject[s][p].append(o)
            for s in sorted(by_subject, key=self._key):
                preds = sorted(by_subject[s], key=lambda p: (p != rdf_type, p))
                parts = []
                for p in preds:
                    objects = [self._compact(o) for o in sorted(by_subject[s][p], key=self._key)]
                    sep = ",\n          " if len(objects) > 3 or sum(map(len, objects)) > 100 else ", "
                    objs = sep.join(objects)
                    name = "a" if p == rdf_type else self._compact(p)
                    parts.append(f"{name} {objs}")
                lines.append(f"  {self._compact(s)} " + " ;\n      ".join(parts) + " .")
            lines.append("}")
        return "\n".join(lines) + "\n"


HEADER = """\
# LiITA-shaped sample knowledge base for nl2sparql (testing and demos).
# GENERATED by data/sample/build_sample.py -- do not edit by hand.
# Written by the nl2sparql project; released under CC0 1.0
# (https://creativecommons.org/publicdomain/zero/1.0/).
# This is NOT a linguistic resource: words, ids, definitions, polarity values
# and dialect spellings are invented or illustrative. See nl2sparql/data/sample/README.md."""


# =============================================================================
# Building
# =============================================================================
class Builder:
    def __init__(self) -> None:
        self.ds = Dataset()
        self.lemmas: dict[str, dict[str, str]] = defaultdict(dict)  # word -> {POS: IRI term}
        self.lemma_pos: dict[str, str] = {}  # lemma IRI term -> LiLa POS
        self.senses: dict[str, list[str]] = {}  # CompL-it word -> sense IRI terms
        self.hypolemmas: dict[str, str] = {}  # hypolemma word -> IRI

    # -- lookups --------------------------------------------------------------
    def lemma(self, key: str) -> str:
        """The LiITA lemma IRI of ``word`` or ``word:pos``."""
        word, _, pos = key.partition(":")
        found = self.lemmas.get(word, {})
        if pos:
            if pos not in found:
                raise KeyError(f"no {pos} lemma {word!r}")
            return found[pos]
        if len(found) != 1:
            raise KeyError(f"lemma {word!r}: {'missing' if not found else 'ambiguous, add :pos'}")
        return next(iter(found.values()))

    def lemma_or_hypolemma(self, word: str) -> str:
        return self.hypolemmas[word] if word in self.hypolemmas else self.lemma(word)

    # -- layer 1 --------------------------------------------------------------
    def build_lemma_bank(self) -> None:
        g, add = LIITA_GRAPH, self.ds.add
        add(g, iri(LEMMA_BANK), c("rdf:type"), c("void:Dataset"))
        add(g, iri(LEMMA_BANK), c("dcterms:title"), lit("LiITA-shaped sample Lemma Bank (nl2sparql)"))
        add(g, iri(LEMMA_BANK), c("rdfs:label"), lit("Sample Lemma Bank"))
        add(g, iri(LEMMA_BANK), c("dcterms:description"), lit(
            "A small invented collection of Italian lemmas shaped like the LiITA Lemma Bank, "
            "for testing and demos of nl2sparql."))
        add(g, iri(LEMMA_BANK), c("dcterms:license"),
            iri("https://creativecommons.org/publicdomain/zero/1.0/"))
        used_variants = set()
        for base, pos, gender, words in LEMMA_BLOCKS:
            if len(words) > 1000 or len(set(words)) != len(words):
                raise ValueError(f"block {base}: too many or duplicate words")
            for offset, word in enumerate(words):
                if pos in self.lemmas[word]:
                    raise ValueError(f"duplicate lemma {word} ({pos})")
                s = iri(f"{LEMMA_BASE}{base + offset}")
                self.lemmas[word][pos] = s
                self.lemma_pos[s] = pos
                add(g, s, c("rdf:type"), c("lila:Lemma"))
                add(g, s, c("rdfs:label"), lit(word))
                add(g, s, c("ontolex:writtenRep"), lit(word, "it"))
                for variant in VARIANTS.get(word, ()):
                    add(g, s, c("ontolex:writtenRep"), lit(variant, "it"))
                    used_variants.add(word)
                add(g, s, c("lila:hasPOS"), c(f"lila:{pos}"))
                for gen in ("masculine", "feminine"):
                    if gender in (gen, "both"):
                        add(g, s, c("lila:hasGender"), c(f"lila:{gen}"))
                if pos == "verb":
                    add(g, s, c("lila:hasInflectionType"), iri(INFLECTION_BASE + _inflection_type(word)))
                if pos == "adjective":
                    degree = "superlative" if base == SUPERLATIVE_BLOCK else "positive"
                    add(g, s, c("lila:hasDegree"), c(f"lila:{degree}"))
                add(g, s, c("dcterms:isPartOf"), iri(LEMMA_BANK))
        if used_variants != set(VARIANTS):
            raise ValueError(f"variants of unknown lemmas: {set(VARIANTS) - used_variants}")
        for base, pos, pairs in HYPOLEMMA_BLOCKS:
            for offset, (word, lemma_word) in enumerate(pairs):
                if word in self.lemmas or word in self.hypolemmas:
                    raise ValueError(f"hypolemma {word} clashes with a lemma")
                s = iri(f"{HYPOLEMMA_BASE}{base + offset}")
                self.hypolemmas[word] = s
                add(g, s, c("rdf:type"), c("lila:Hypolemma"))
                add(g, s, c("rdfs:label"), lit(word))
                add(g, s, c("ontolex:writtenRep"), lit(word, "it"))
                add(g, s, c("lila:hasPOS"), c(f"lila:{pos}"))
                add(g, s, c("lila:isHypolemma"), self.lemma(lemma_word))

    # -- layer 2 --------------------------------------------------------------
    def build_elita(self) -> None:
        g, add = ELITA_GRAPH, self.ds.add
        add(g, c("elita:Emotion"), c("rdf:type"), c("owl:Class"))
        add(g, c("elita:HasEmotion"), c("rdf:type"), c("owl:ObjectProperty"))
        add(g, c("elita:HasEmotion"), c("rdfs:range"), c("elita:Emotion"))
        add(g, c("elita:HasEmotion"), c("rdfs:label"), lit("has emotion", "en"))
        for emotion in EMOTIONS:
            add(g, c(f"elita:{emotion}"), c("rdf:type"), c("elita:Emotion"))
            add(g, c(f"elita:{emotion}"), c("rdfs:label"), lit(emotion, "it"))
        seen = set()
        for word, emotions, value in ELITA:
            if word in seen:
                raise ValueError(f"ELITA word twice: {word}")
            seen.add(word)
            s = iri(ELITA_ENTRY_BASE + slug(word))
            add(g, s, c("rdfs:label"), lit(word))
            add(g, s, c("ontolex:canonicalForm"), self.lemma_or_hypolemma(word))
            for emotion in emotions.split():
                if emotion not in EMOTIONS:
                    raise ValueError(f"unknown emotion {emotion}")
                add(g, s, c("elita:HasEmotion"), c(f"elita:{emotion}"))
            add(g, s, c("marl:Polarity"), lit(_elita_polarity(value)))
            add(g, s, c("marl:hasPolarityValue"), float_lit(value))

    # -- layer 3 --------------------------------------------------------------
    def build_sentix(self) -> None:
        g, add = SENTIX_GRAPH, self.ds.add
        for polarity in ("Positive", "Negative", "Neutral"):
            add(g, c(f"marl:{polarity}"), c("rdf:type"), c("marl:Polarity"))
            add(g, c(f"marl:{polarity}"), c("rdfs:label"), lit(polarity, "en"))
        for word, value in SENTIX.items():
            if not -1.0 <= value <= 1.0:
                raise ValueError(f"Sentix value out of range: {word}")
            s = iri(SENTIX_ENTRY_BASE + slug(word))
            add(g, s, c("ontolex:canonicalForm"), self.lemma(word))
            add(g, s, c("marl:hasPolarity"), c(f"marl:{_sentix_polarity(value)}"))
            add(g, s, c("marl:hasPolarityValue"), float_lit(value))

    # -- layers 4 and 5 -------------------------------------------------------
    def _build_glossary(self, *, graph: str, rows: list[tuple[str, str, str | None, str]],
                        lemma_base: str, lemma_bank: str, first_id: int, lang: str,
                        lexicon: str, entry_base: str, side: str, side_label: str,
                        bank_title: str, lexicon_title: str, lexicon_label: str) -> None:
        """rows: (Italian lemma, dialect reps "a/b", gender "m"/"f"/None, usage comment)."""
        add = self.ds.add
        add(graph, iri(lemma_bank), c("rdf:type"), c("void:Dataset"))
        add(graph, iri(lemma_bank), c("dcterms:title"), lit(bank_title))
        add(graph, iri(lemma_bank), c("rdfs:label"), lit(bank_title))
        add(graph, iri(lexicon), c("rdf:type"), c("lime:Lexicon"))
        add(graph, iri(lexicon), c("dcterms:title"), lit(lexicon_title))
        add(graph, iri(lexicon), c("rdfs:label"), lit(lexicon_label))
        dialect_ids: dict[str, int] = {}  # first written rep -> lemma id
        italian_entries: dict[str, str] = {}  # Italian word -> entry IRI
        for italian, reps, gender, comment in rows:
            reps_list = reps.split("/")
            it_lemma = self.lemma(italian)
            pos = self.lemma_pos[it_lemma]
            key = reps_list[0]
            if key not in dialect_ids:
                dialect_ids[key] = first_id + len(dialect_ids)
                lemma_iri = iri(f"{lemma_base}{dialect_ids[key]}")
                add(graph, lemma_iri, c("rdf:type"), c("lila:Lemma"))
                add(graph, lemma_iri, c("rdfs:label"), lit(key))
                for rep in reps_list:
                    add(graph, lemma_iri, c("ontolex:writtenRep"), lit(rep, lang))
                add(graph, lemma_iri, c("lila:hasPOS"), c(f"lila:{pos}"))
                if gender:
                    add(graph, lemma_iri, c("lila:hasGender"),
                        c({"m": "lila:masculine", "f": "lila:feminine"}[gender]))
                add(graph, lemma_iri, c("dcterms:isPartOf"), iri(lemma_bank))
                entry = iri(f"{entry_base}{side}/{dialect_ids[key]}")
                add(graph, iri(lexicon), c("lime:entry"), entry)
                add(graph, entry, c("rdf:type"), c("ontolex:LexicalEntry"))
                add(graph, entry, c("rdfs:label"), lit(f"Lexical entry of {side_label}: {key}"))
                add(graph, entry, c("ontolex:canonicalForm"), lemma_iri)
            entry = iri(f"{entry_base}{side}/{dialect_ids[key]}")
            if comment:
                add(graph, entry, c("rdfs:comment"), lit(comment))
            if italian not in italian_entries:
                n = len(italian_entries) + 1
                italian_entries[italian] = iri(f"{entry_base}italian/{n}")
                it_entry = italian_entries[italian]
                add(graph, iri(lexicon), c("lime:entry"), it_entry)
                add(graph, it_entry, c("rdf:type"), c("ontolex:LexicalEntry"))
                add(graph, it_entry, c("rdfs:label"), lit(f"Lexical entry of Italian: {italian}"))
                add(graph, it_entry, c("ontolex:canonicalForm"), it_lemma)
            add(graph, italian_entries[italian], c("vartrans:translatableAs"), entry)

    def build_dialects(self) -> None:
        self._build_glossary(
            graph=PARMIGIANO_GRAPH, rows=[(it, d, None, note) for it, d, note in PARMIGIANO],
            lemma_base=PARMIGIANO_LEMMA_BASE,
            lemma_bank=PARMIGIANO_LEMMA_BANK, first_id=880001, lang="roa",
            lexicon=PARMIGIANO_LEXICON, entry_base=PARMIGIANO_ENTRY_BASE, side="parmigiano",
            side_label="Parmigiano", bank_title="Sample Parmigiano Lemma Bank (nl2sparql)",
            lexicon_title="Sample bilingual glossary Italian - Parmigiano (nl2sparql)",
            lexicon_label="Glossario italiano - parmigiano (campione)")
        self._build_glossary(
            graph=SICILIANO_GRAPH, rows=[(it, d, gender, "") for it, d, gender in SICILIANO],
            lemma_base=SICILIANO_LEMMA_BASE,
            lemma_bank=SICILIANO_LEMMA_BANK, first_id=890001, lang="scn",
            lexicon=SICILIANO_LEXICON, entry_base=SICILIANO_ENTRY_BASE, side="siciliano",
            side_label="Siciliano", bank_title="Sample Sicilian Lemma Bank (nl2sparql)",
            lexicon_title="Sample bilingual glossary Sicilian - Italian (nl2sparql)",
            lexicon_label="Glossario siciliano - italiano (campione)")

    # -- layer 6 --------------------------------------------------------------
    def build_complit(self) -> None:
        g, add = COMPLIT_SERVICE, self.ds.add
        for pos, label in POS_LABELS.items():
            add(g, c(f"lexinfo:{pos}"), c("rdf:type"), c("lexinfo:PartOfSpeech"))
            add(g, c(f"lexinfo:{pos}"), c("rdfs:label"), lit(label, "en"))
        number = FIRST_SENSE_NUMBER
        word_iris: set[str] = set()
        for key, senses in COMPLIT_SENSES.items():
            word, _, pos = key.partition(":")
            lemma_iri = None
            if word in self.lemmas:
                lemma_iri = self.lemma(key)
                pos = self.lemma_pos[lemma_iri]
            elif not pos:
                raise KeyError(f"CompL-it word {word!r} is no lemma: write {word}:pos")
            if not 1 <= len(senses) <= 4:
                raise ValueError(f"{key}: 1 to 4 senses")
            word_iri = iri(f"{COMPLIT_WORD_BASE}MUS{slug(word)}{COMPLIT_POS[pos]}")
            if word_iri in word_iris:
                raise ValueError(f"CompL-it word IRI clash: {word_iri}")
            word_iris.add(word_iri)
            form_iri = iri(f"{COMPLIT_WORD_BASE}MUS{slug(word)}{COMPLIT_POS[pos]}_lemma")
            add(g, word_iri, c("rdf:type"), c("ontolex:Word"))
            add(g, word_iri, c("lexinfo:partOfSpeech"), c(f"lexinfo:{pos}"))
            add(g, word_iri, c("ontolex:canonicalForm"), form_iri)
            add(g, form_iri, c("rdf:type"), c("ontolex:Form"))
            add(g, form_iri, c("ontolex:writtenRep"), lit(word, "it"))
            self.senses[word] = []
            for sense in senses:
                definition, example = (sense, None) if isinstance(sense, str) else sense
                sense_iri = iri(f"{COMPLIT_WORD_BASE}USem{number}{slug(word)}")
                number += 1
                self.senses[word].append(sense_iri)
                add(g, word_iri, c("ontolex:sense"), sense_iri)
                add(g, sense_iri, c("rdf:type"), c("ontolex:LexicalSense"))
                add(g, sense_iri, c("skos:definition"), lit(definition, "it"))
                if example:
                    add(g, sense_iri, c("lexinfo:senseExample"), lit(example, "it"))
            if lemma_iri:
                add(COMPLIT_LINKS_GRAPH, word_iri, c("ontolex:canonicalForm"), lemma_iri)

        def rel(a: str, pred: str, b: str) -> None:
            add(g, self.sense(a), pred, self.sense(b))

        for general, specifics in HYPONYMS.items():
            for specific in specifics:
                rel(specific, c("lexinfo:hyponym"), general)
                rel(general, c("lexinfo:hypernym"), specific)
        for whole, parts in PARTS.items():
            for part in parts:
                rel(part, c("lexinfo:partMeronym"), whole)
                rel(whole, c("lexinfo:partHolonym"), part)
        for group, members in MEMBERS.items():
            for member in members:
                rel(member, c("lexinfo:memberMeronym"), group)
                rel(group, c("lexinfo:memberHolonym"), member)
        for pairs, pred in ((SYNONYMS, c("lexinfo:approximateSynonym")),
                            (ANTONYMS, c("lexinfo:antonym")),
                            (ANTONYMS_GRAD, c("complit:antonymGrad")),
                            (ANTONYMS_COMP, c("complit:antonymComp"))):
            for a, b in pairs:
                rel(a, pred, b)
                rel(b, pred, a)
        for a, b in USED_FOR:
            rel(a, c("complit:usedFor"), b)
        for a, b in MADE_OF:
            rel(a, c("complit:madeOf"), b)

    def sense(self, ref: str) -> str:
        """``word``, ``word:pos`` or ``word#n`` -> sense IRI."""
        key, _, n = ref.partition("#")
        word = key.partition(":")[0]
        if word not in self.senses:
            raise KeyError(f"no CompL-it senses for {ref!r}")
        index = int(n) - 1 if n else 0
        return self.senses[word][index]

    # -- layer 7 --------------------------------------------------------------
    def build_morphology(self) -> None:
        g, add = MORPHOLOGY_GRAPH, self.ds.add
        for name, (cls, label) in FEATURE_LABELS.items():
            add(g, c(f"lexinfo:{name}"), c("rdf:type"), c(f"lexinfo:{cls}"))
            add(g, c(f"lexinfo:{name}"), c("rdfs:label"), lit(label, "en"))
        for pos in ("noun", "verb", "adjective"):
            add(g, c(f"lexinfo:{pos}"), c("rdf:type"), c("lexinfo:PartOfSpeech"))
            add(g, c(f"lexinfo:{pos}"), c("rdfs:label"), lit(POS_LABELS[pos], "en"))

        def entry(word: str, pos: str) -> tuple[str, str]:
            lemma_iri = self.lemma(f"{word}:{pos}")
            lemma_id = lemma_iri[1:-1].rsplit("/", 1)[1]
            e = iri(f"{MORPH_ENTRY_BASE}{lemma_id}")
            add(g, e, c("rdf:type"), c("ontolex:LexicalEntry"))
            add(g, e, c("ontolex:canonicalForm"), lemma_iri)
            add(g, e, c("lexinfo:partOfSpeech"), c(f"lexinfo:{pos}"))
            return e, lemma_id

        def form(e: str, lemma_id: str, code: str, written: str, **features: str) -> None:
            f = iri(f"{MORPH_FORM_BASE}{lemma_id}/{code}")
            add(g, e, c("ontolex:otherForm"), f)
            add(g, f, c("rdf:type"), c("ontolex:Form"))
            add(g, f, c("ontolex:writtenRep"), lit(written, "it"))
            for feature, value in features.items():
                add(g, f, c(f"lexinfo:{feature}"), c(f"lexinfo:{value}"))

        verbs = dict(IRREGULAR_VERBS)
        for verb, kind in REGULAR_VERBS.items():
            verbs[verb] = regular_paradigm(verb, kind)
        for verb in sorted(verbs):
            paradigm = verbs[verb]
            e, lid = entry(verb, "verb")
            form(e, lid, "inf", verb, verbFormMood="infinitive")
            form(e, lid, "ger", paradigm["ger"], verbFormMood="gerundive")
            form(e, lid, "part", paradigm["part"], verbFormMood="participle", tense="past",
                 gender="masculine", number="singular")
            for cell, (tense, mood) in FINITE_CELLS.items():
                forms = paradigm[cell].split()
                if len(forms) != 6:
                    raise ValueError(f"{verb} {cell}: six forms expected")
                for written, (code, person, number) in zip(forms, PERSONS):
                    form(e, lid, f"{cell}-{code}", written, tense=tense, verbFormMood=mood,
                         person=person, number=number)
            for code, written in ALTERNATIVE_FORMS.get(verb, ()):
                if code == "part":
                    form(e, lid, "part-alt", written, verbFormMood="participle", tense="past",
                         gender="masculine", number="singular")
                    continue
                cell, _, pcode = code.rpartition("-")
                tense, mood = FINITE_CELLS[cell]
                person, number = next((p, n) for k, p, n in PERSONS if k == pcode)
                form(e, lid, f"{code}-alt", written, tense=tense, verbFormMood=mood,
                     person=person, number=number)
        for noun in sorted(NOUN_FORMS):
            sg, sg_gender, pl, pl_gender = NOUN_FORMS[noun]
            e, lid = entry(noun, "noun")
            form(e, lid, "sg", sg, number="singular", gender=sg_gender)
            form(e, lid, "pl", pl, number="plural", gender=pl_gender)
        for adjective in sorted(ADJECTIVE_FORMS):
            e, lid = entry(adjective, "adjective")
            cells = (("ms", "masculine", "singular"), ("fs", "feminine", "singular"),
                     ("mp", "masculine", "plural"), ("fp", "feminine", "plural"))
            for written, (code, gender, number) in zip(ADJECTIVE_FORMS[adjective].split(), cells):
                form(e, lid, code, written, gender=gender, number=number)

    # -- all ------------------------------------------------------------------
    def build(self) -> Dataset:
        self.build_lemma_bank()
        self.build_elita()
        self.build_sentix()
        self.build_dialects()
        self.build_complit()
        self.build_morphology()
        return self.ds


def build_text() -> str:
    return Builder().build().to_trig(HEADER)


def _stats(path: Path) -> None:
    import pyoxigraph as ox

    store = ox.Store()
    store.load(path=str(path), format=ox.RdfFormat.TRIG)
    print(f"total quads: {len(store)}")
    for graph in sorted(store.named_graphs(), key=lambda n: n.value):
        n = sum(1 for _ in store.quads_for_pattern(None, None, None, graph))
        print(f"{n:7d}  {graph.value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="TriG file to write")
    parser.add_argument("--stats", action="store_true", help="print quad counts per graph")
    args = parser.parse_args(argv)
    text = build_text()
    args.output.write_bytes(text.encode("utf-8"))
    try:  # validate with pyoxigraph when available
        import pyoxigraph as ox

        ox.Store().load(path=str(args.output), format=ox.RdfFormat.TRIG)
    except ImportError:
        pass
    if args.stats:
        _stats(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
