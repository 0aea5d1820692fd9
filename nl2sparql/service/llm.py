"""LLM settings for the API: one configuration path (arguments > environment > config file)."""

from __future__ import annotations


def llm_config(**settings):
    """An :class:`~nl2sparql.llm.LLMConfig` from explicit settings > environment > config file.

    Keywords are those of :meth:`~nl2sparql.llm.LLMConfig.resolve` (``model``,
    ``base_url``, ``config_file``, ``timeout``, ``max_concurrency``, ``no_cache``, …);
    ``None`` values fall through to the environment. Raises a one-line
    :class:`~nl2sparql.errors.ConfigError` naming what to set when no LLM is configured.
    """
    from ..llm import LLMConfig
    return LLMConfig.resolve(**settings)


def llm_client(llm):
    """An LLM client from an ``LLMConfig`` (``None``: resolved from the environment and config file)."""
    from ..llm import LLMClient
    return LLMClient(llm if llm is not None else llm_config())
