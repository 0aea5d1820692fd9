"""Translation of Italian and English questions into LiITA SPARQL.

The pattern knowledge (cues, vocabularies, readers, steps, rules, prompt
guidance) lives in :mod:`nl2sparql.patterns`; this package is the generic
machinery around it, by concern:

* Reading questions: :mod:`.slots` runs every pattern's readers by stage and
  reads what no pattern owns (IRIs, LIMIT, the named word, relations).
* Planning: :mod:`.plans` asks the patterns for their steps and decides the
  shape; :mod:`.offline` chooses among plans (retrieved examples settle
  ambiguous readings) and renders the query with the catalogue.
* Retrieval: :mod:`.retrieval` (``HybridRetriever``: USE embeddings + FAISS,
  BM25 from :mod:`.bm25`, pattern boost), on :mod:`.text` (tokenisation),
  :mod:`.embedders` and :mod:`.index_cache` (per-pool cached index).
* Validation: :mod:`.validate` runs the one registry of LiITA rules
  (:data:`nl2sparql.patterns.RULES`, machinery in :mod:`nl2sparql.rules`) and
  applies their safe fixes.
* LLM: :mod:`.prompts` (constraint prompts from the rule registry and the
  catalogue) and :mod:`.llm_translate` (repair rounds, offline fallback).
* :mod:`.translator` is the façade used by the CLI and by ``evaluate``.
"""
