"""The LLM client: one OpenAI-compatible chat client for generation and translation.

It talks to any server that speaks the OpenAI chat-completions protocol
(OpenAI, vLLM, llama.cpp's server, Ollama) through the ``openai`` SDK.

Configuration (flags > environment > config file; see :mod:`.config`):

- ``OPENAI_API_KEY``: the key (a local server needs none; a placeholder is sent).
- ``OPENAI_BASE_URL``: the server, e.g. ``http://localhost:8000/v1`` (vLLM) or
  ``http://localhost:11434/v1`` (Ollama). Unset: OpenAI's API.
- ``NL2SPARQL_LLM_MODEL``: model of the ``default`` tier (writes SPARQL).
- ``NL2SPARQL_LLM_FAST_MODEL``: model of the ``fast`` tier (paraphrases, judges);
  the default model when unset.
- ``NL2SPARQL_LLM_CACHE``: response cache file (default ``llm_cache.sqlite`` in the
  project cache directory, :func:`nl2sparql.paths.cache_dir`), ``off`` to disable.
- a TOML file, ``~/.config/nl2sparql/llm.toml`` or ``--llm-config FILE``.

Use::

    from nl2sparql.llm import LLMClient, LLMConfig, extract_sparql

    client = LLMClient(LLMConfig.resolve())          # ConfigError if nothing is set
    answer = client.chat([{"role": "user", "content": "..."}], tier="default", seed=0)
    query = extract_sparql(answer.text)              # None for garbage / truncation
    answers = client.chat_many([msgs1, msgs2], tier="fast", temperature=0.7)
    manifest["llm"] = {**client.config.to_dict(), "usage": client.usage.to_dict()}

Behaviour: transient failures (429, 5xx, connection errors, timeouts) are
retried with exponential backoff and jitter (the SDK's own retries are off), then
an :class:`LLMError` is raised; answers are cached in sqlite keyed by model,
messages and sampling parameters, so a re-run makes no request twice (vary
``seed`` to get different samples of the same prompt); a server that rejects
``seed`` is asked again without it. :meth:`LLMClient.generate_from_input` and
:meth:`LLMClient.serving` give the open-dataflow serving interface, so DataFlow
serving objects and ours are interchangeable in operators.
"""

from .cache import ResponseCache, cache_key
from .client import LLMClient, LLMResponse, LLMServing, Usage
from .config import LLMConfig
from .errors import LLMError, LLMFormatError
from .parsing import extract_sparql, parse_json_verdict, why_no_sparql

__all__ = [
    "LLMClient", "LLMConfig", "LLMError", "LLMFormatError", "LLMResponse", "LLMServing",
    "ResponseCache", "Usage", "cache_key", "extract_sparql", "parse_json_verdict", "why_no_sparql",
]
