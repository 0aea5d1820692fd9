"""Where the LLM client's settings come from: flags, environment, a TOML file.

Precedence is flags (explicit arguments) > environment > config file > defaults.

Environment variables:

- ``OPENAI_API_KEY``: the API key (a local server needs none).
- ``OPENAI_BASE_URL``: an OpenAI-compatible server, e.g. ``http://localhost:8000/v1``.
- ``NL2SPARQL_LLM_MODEL``: the model of the ``default`` tier (SPARQL writing).
- ``NL2SPARQL_LLM_FAST_MODEL``: the model of the ``fast`` tier (paraphrase, judging);
  falls back to the default model.
- ``NL2SPARQL_LLM_CACHE``: the response cache file, or ``off`` to disable it.
- ``NL2SPARQL_LLM_TIMEOUT``: seconds one request may take (default 60).
- ``NL2SPARQL_LLM_CONFIG``: a config file to read instead of the default one.

The config file (``--llm-config FILE``, else ``$XDG_CONFIG_HOME/nl2sparql/llm.toml``,
else ``~/.config/nl2sparql/llm.toml``; a missing default file is ignored)::

    model = "gpt-4o"
    fast_model = "gpt-4o-mini"
    base_url = "http://localhost:8000/v1"   # optional
    api_key_env = "MY_SERVER_KEY"           # read the key from this variable
    timeout = 60                            # seconds per request
    deadline = 420                          # seconds per call, retries and back-off included
    max_retries = 4
    max_concurrency = 4
    cache_path = "/path/to/llm_cache.sqlite"  # default: llm_cache.sqlite in the cache; or cache = false
    seed = 0

    [prices."gpt-4o-mini"]                  # USD per million tokens
    prompt = 0.15
    completion = 0.60
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..errors import ConfigError

#: What to do about an LLM cache file that cannot be used.
CACHE_HINT = ("choose another file with NL2SPARQL_LLM_CACHE or the LLM config file's cache_path, "
              "or set NL2SPARQL_LLM_CACHE=off")

#: The response cache's file name in the project cache directory (see :func:`default_cache_path`).
CACHE_NAME = "llm_cache.sqlite"
OPENAI_BASE_URL = "https://api.openai.com/v1"
LOCAL_PLACEHOLDER_KEY = "EMPTY"
TIERS = ("default", "fast")

_OFF = {"off", "none", "no", "false", "0", ""}
_FILE_KEYS = {
    "model", "fast_model", "api_key", "api_key_env", "base_url", "timeout", "deadline", "max_retries",
    "max_concurrency", "cache", "cache_path", "seed", "backoff_base", "backoff_max", "prices",
}


def default_cache_path() -> Path:
    """The response cache in the project cache directory, like every other cache (``NL2SPARQL_CACHE``,
    else the checkout's ``cache/`` or ``~/.cache/nl2sparql``; see :mod:`nl2sparql.paths`), whatever the
    working directory."""
    from ..paths import cache_dir
    return cache_dir() / CACHE_NAME


@dataclass
class LLMConfig:
    """Resolved settings of an :class:`~nl2sparql.llm.client.LLMClient`.

    ``prices`` maps a model name to ``{"prompt": usd, "completion": usd}`` per
    million tokens; models without a price count tokens but no cost.
    ``cache_path`` None disables the response cache. ``timeout`` bounds one
    HTTP request; ``deadline`` bounds one call, retries and back-off included
    (default: (max_retries + 1) × timeout + max_retries × backoff_max).
    """

    model: str
    fast_model: str | None = None
    api_key: str | None = None
    base_url: str | None = None
    timeout: float = 60.0
    deadline: float | None = None
    max_retries: int = 4
    max_concurrency: int = 4
    cache_path: Path | None = field(default_factory=default_cache_path)
    seed: int | None = None
    backoff_base: float = 1.0
    backoff_max: float = 30.0
    prices: dict[str, dict[str, float]] = field(default_factory=dict)
    source: str = "arguments"

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise :class:`ConfigError` on values no client can work with."""
        if not self.model:
            raise ConfigError("no LLM model configured: set NL2SPARQL_LLM_MODEL or pass --llm-model")
        if self.base_url and not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"LLM base URL must start with http:// or https://, got {self.base_url!r}")
        if not (0 < self.timeout <= 86_400):
            raise ConfigError(f"LLM timeout must be more than 0 and at most 86400 seconds, got {self.timeout}")
        if self.deadline is None:  # every try may use its timeout and every back-off its maximum
            self.deadline = (self.max_retries + 1) * self.timeout + self.max_retries * self.backoff_max
        if not (0 < self.deadline <= 7 * 86_400):
            raise ConfigError(f"LLM deadline must be more than 0 and at most 604800 seconds, got {self.deadline}")
        if not (0 <= self.backoff_base <= 3600 and 0 <= self.backoff_max <= 3600):
            raise ConfigError("LLM backoff_base and backoff_max must be between 0 and 3600 seconds")
        if not 0 <= self.max_retries <= 20:
            raise ConfigError(f"LLM max_retries must be 0 or more (at most 20), got {self.max_retries}")
        if self.cache_path is not None and Path(self.cache_path).is_dir():  # found at start, not at the first call
            raise ConfigError(f"the LLM cache {self.cache_path} is a directory, not a file ({CACHE_HINT})")
        if not 1 <= self.max_concurrency <= 256:
            raise ConfigError(f"LLM max_concurrency must be at least 1 and at most 256, got {self.max_concurrency}")
        for model, price in self.prices.items():
            if not isinstance(price, Mapping) or not set(price) <= {"prompt", "completion"}:
                raise ConfigError(f"LLM price for {model!r} must be a table with 'prompt' and 'completion' "
                                  "(USD per million tokens)")

    @property
    def effective_base_url(self) -> str:
        """The server the requests go to (OpenAI's API when no base URL is set)."""
        return (self.base_url or OPENAI_BASE_URL).rstrip("/")

    @property
    def effective_api_key(self) -> str:
        """The key sent: the configured one, or a placeholder for a local server."""
        return self.api_key or LOCAL_PLACEHOLDER_KEY

    def model_for(self, tier: str = "default") -> str:
        """The model of ``tier`` (``default`` or ``fast``; ``fast`` falls back to ``default``)."""
        if tier == "default":
            return self.model
        if tier == "fast":
            return self.fast_model or self.model
        raise ValueError(f"unknown LLM tier {tier!r} (use one of {', '.join(TIERS)})")

    def to_dict(self) -> dict[str, Any]:
        """The settings for a run manifest; the API key is never included."""
        return {
            "model": self.model,
            "fast_model": self.model_for("fast"),
            "base_url": self.effective_base_url,
            "timeout": self.timeout,
            "deadline": self.deadline,
            "max_retries": self.max_retries,
            "max_concurrency": self.max_concurrency,
            "cache_path": str(self.cache_path) if self.cache_path else None,
            "seed": self.seed,
            "source": self.source,
        }

    @classmethod
    def resolve(
        cls,
        *,
        model: str | None = None,
        fast_model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        config_file: str | os.PathLike | None = None,
        timeout: float | None = None,
        deadline: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int | None = None,
        cache_path: str | os.PathLike | None = None,
        no_cache: bool = False,
        seed: int | None = None,
        env: Mapping[str, str] | None = None,
    ) -> "LLMConfig":
        """Build the configuration from arguments (flags) > environment > config file.

        ``env`` defaults to ``os.environ``. Raises :class:`ConfigError` (one line,
        naming the variables to set) when no model, or neither a key nor a base
        URL, can be found.
        """
        env = os.environ if env is None else env
        path, explicit = _config_path(config_file, env)
        file = _read_toml(path, explicit) if path else {}
        source = []

        def pick(flag: Any, env_name: str | None, file_key: str) -> Any:
            if flag is not None:
                source.append("arguments")
                return flag
            if env_name and env.get(env_name):
                source.append("environment")
                return env[env_name]
            if file.get(file_key) is not None:
                source.append(str(path))
                return file[file_key]
            return None

        key_env = file.get("api_key_env")
        key = pick(api_key, "OPENAI_API_KEY", "api_key")
        if key is None and key_env:
            key = env.get(str(key_env)) or None
        url = pick(base_url, "OPENAI_BASE_URL", "base_url")
        chosen_model = pick(model, "NL2SPARQL_LLM_MODEL", "model")
        chosen_fast = pick(fast_model, "NL2SPARQL_LLM_FAST_MODEL", "fast_model")

        if not chosen_model and not key and not url:
            raise ConfigError(
                "no LLM configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server such as "
                "vLLM/Ollama) and NL2SPARQL_LLM_MODEL, write them in "
                + (str(path) if path else "~/.config/nl2sparql/llm.toml")
                + ", or give the command --llm-model and --llm-base-url")
        if not chosen_model:
            raise ConfigError("no LLM model configured: set NL2SPARQL_LLM_MODEL or pass --llm-model")
        if not key and not url:
            raise ConfigError(
                "no LLM credentials: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server such as "
                "vLLM/Ollama), or pass --llm-base-url")

        values: dict[str, Any] = dict(
            model=str(chosen_model), fast_model=str(chosen_fast) if chosen_fast else None,
            api_key=str(key) if key else None, base_url=str(url) if url else None,
            cache_path=_resolve_cache(cache_path, no_cache, env, file),
            prices=dict(file.get("prices") or {}),
            source=", ".join(dict.fromkeys(source)) or "defaults",
        )
        if timeout is None and env.get("NL2SPARQL_LLM_TIMEOUT"):
            try:
                timeout = float(env["NL2SPARQL_LLM_TIMEOUT"])
            except ValueError:
                raise ConfigError(f"NL2SPARQL_LLM_TIMEOUT must be a number of seconds, got "
                                  f"{env['NL2SPARQL_LLM_TIMEOUT']!r}") from None
        for name, flag, kind in (("timeout", timeout, float), ("deadline", deadline, float),
                                 ("max_retries", max_retries, int),
                                 ("max_concurrency", max_concurrency, int), ("seed", seed, int),
                                 ("backoff_base", None, float), ("backoff_max", None, float)):
            value = _number(flag, file, name, kind, path)
            if value is not None:
                values[name] = value
        return cls(**values)

def _config_path(config_file, env: Mapping[str, str]) -> tuple[Path | None, bool]:
    """The config file to read and whether it was asked for explicitly (then it must exist)."""
    if config_file is not None:
        return Path(config_file).expanduser(), True
    if env.get("NL2SPARQL_LLM_CONFIG"):
        return Path(env["NL2SPARQL_LLM_CONFIG"]).expanduser(), True
    base = env.get("XDG_CONFIG_HOME")
    if base:
        root = Path(base)
    elif env.get("HOME"):
        root = Path(env["HOME"]) / ".config"
    else:
        root = Path.home() / ".config"
    default = root / "nl2sparql" / "llm.toml"
    return (default, False) if default.is_file() else (None, False)


def _read_toml(path: Path, explicit: bool) -> dict[str, Any]:
    """Read and check the TOML config file (unknown keys are an error, to catch typos)."""
    if not path.is_file():
        if explicit:
            raise ConfigError(f"LLM config file not found: {path} (check --llm-config / NL2SPARQL_LLM_CONFIG)")
        return {}
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10 only
        try:
            import tomli as tomllib
        except ImportError:
            raise ConfigError(f"reading {path} needs Python 3.11+ or the 'tomli' package (pip install tomli)")
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"LLM config file {path} is not valid TOML: {' '.join(str(exc).split())}")
    except OSError as exc:
        raise ConfigError(f"cannot read LLM config file {path}: {exc.strerror or exc}")
    unknown = sorted(set(data) - _FILE_KEYS)
    if unknown:
        raise ConfigError(f"unknown key(s) in LLM config file {path}: {', '.join(unknown)} "
                          f"(known: {', '.join(sorted(_FILE_KEYS))})")
    return data


def _resolve_cache(flag, no_cache: bool, env: Mapping[str, str], file: Mapping[str, Any]) -> Path | None:
    """The cache file: flag > NL2SPARQL_LLM_CACHE > file (``cache = false`` disables it) > default."""
    if no_cache:
        return None
    if flag is not None:
        return Path(flag).expanduser()
    value = env.get("NL2SPARQL_LLM_CACHE")
    if value is not None:
        return None if value.strip().lower() in _OFF else Path(value).expanduser()
    if file.get("cache") is False:
        return None
    if file.get("cache_path"):
        return Path(str(file["cache_path"])).expanduser()
    return default_cache_path()


def _number(flag, file: Mapping[str, Any], key: str, kind: type, path: Path | None):
    """A numeric setting from the flag or the file, checked for type."""
    value = flag if flag is not None else file.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and isinstance(value, float)):
        where = f"in {path}" if flag is None else "as an argument"
        raise ConfigError(f"LLM setting {key!r} {where} must be a{'n integer' if kind is int else ' number'}, "
                          f"got {value!r}")
    return kind(value)

