"""Translation of questions into LiITA SPARQL: example retrieval and the translator.

Retrieval lives in :mod:`nl2sparql.translate.retrieval` (``HybridRetriever``),
built on :mod:`.text` (tokenisation), :mod:`.bm25`, :mod:`.embedders` and
:mod:`.index_cache`.
"""
