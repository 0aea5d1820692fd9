"""Translation of Italian and English questions into LiITA SPARQL.

* Retrieval: :mod:`.retrieval` (``HybridRetriever``: USE embeddings + FAISS, BM25
  from :mod:`.bm25`, pattern boost), on :mod:`.text` (tokenisation, accent
  folding), :mod:`.embedders` and :mod:`.index_cache` (per-pool cached index).
* Offline translation: :mod:`.slots` (with :mod:`.cues` and :mod:`.lexicon`)
  extracts slot values, :mod:`.plans` turns patterns + slots into catalogue
  blocks, :mod:`.offline` decides the structure (retrieved examples settle
  ambiguous cues) and renders the query.
* Validation and repair: :mod:`.validate` runs the LiITA rules of
  :mod:`.rules` (on the triples read by :mod:`.triples`) and the safe fixes of
  :mod:`.fixes`.
* LLM path: :mod:`.prompts` (constraint prompts from the catalogue) and
  :mod:`.llm_translate` (repair rounds, offline fallback).
* :mod:`.translator` is the façade used by the CLI and by ``evaluate``.
"""
