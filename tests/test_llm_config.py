"""Where the LLM settings come from: flags > environment > config file > defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from nl2sparql.errors import ConfigError
from nl2sparql.llm import LLMConfig
from nl2sparql.llm.config import default_cache_path

FILE = """
model = "file-model"
fast_model = "file-fast"
base_url = "http://file:8000/v1"
timeout = 12
max_retries = 2
max_concurrency = 8
cache_path = "file-cache.sqlite"
seed = 3

[prices."file-model"]
prompt = 1.0
completion = 2.0
"""


@pytest.fixture
def home(tmp_path) -> Path:
    """An empty HOME, so the user's real ~/.config is never read."""
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_environment(home):
    config = LLMConfig.resolve(env={"HOME": str(home), "OPENAI_API_KEY": "sk-1", "NL2SPARQL_LLM_MODEL": "gpt-x"})
    assert config.model == "gpt-x" and config.model_for("fast") == "gpt-x"  # fast falls back to default
    assert config.api_key == "sk-1" and config.effective_base_url == "https://api.openai.com/v1"
    assert config.cache_path == default_cache_path() and config.max_concurrency == 4
    assert config.source == "environment"


def test_precedence_flags_env_file(home):
    cfg = write(home / "llm.toml", FILE)
    env = {"HOME": str(home), "NL2SPARQL_LLM_MODEL": "env-model", "OPENAI_BASE_URL": "http://env:1/v1"}
    config = LLMConfig.resolve(config_file=cfg, env=env, base_url="http://flag:2/v1", timeout=5)
    assert config.base_url == "http://flag:2/v1"  # flag beats env
    assert config.model == "env-model"  # env beats file
    assert config.model_for("fast") == "file-fast"  # file fills the rest
    assert config.timeout == 5.0 and config.max_retries == 2 and config.max_concurrency == 8 and config.seed == 3
    assert config.cache_path == Path("file-cache.sqlite") and config.api_key is None
    assert config.effective_api_key == "EMPTY"  # a local server needs no key
    assert config.prices == {"file-model": {"prompt": 1.0, "completion": 2.0}}


def test_default_file_locations(home):
    write(home / ".config" / "nl2sparql" / "llm.toml", 'model = "home-model"\nbase_url = "http://h/v1"\n')
    assert LLMConfig.resolve(env={"HOME": str(home)}).model == "home-model"
    xdg = home / "xdg"
    write(xdg / "nl2sparql" / "llm.toml", 'model = "xdg-model"\nbase_url = "http://x/v1"\n')
    assert LLMConfig.resolve(env={"HOME": str(home), "XDG_CONFIG_HOME": str(xdg)}).model == "xdg-model"
    other = write(home / "other.toml", 'model = "other"\nbase_url = "http://o/v1"\n')
    assert LLMConfig.resolve(env={"HOME": str(home), "NL2SPARQL_LLM_CONFIG": str(other)}).model == "other"


def test_api_key_from_a_named_variable(home):
    cfg = write(home / "llm.toml", 'model = "m"\napi_key_env = "GROQ_KEY"\n')
    assert LLMConfig.resolve(config_file=cfg, env={"HOME": str(home), "GROQ_KEY": "gk"}).api_key == "gk"


def test_cache_settings(home):
    env = {"HOME": str(home), "OPENAI_API_KEY": "k", "NL2SPARQL_LLM_MODEL": "m"}
    assert LLMConfig.resolve(env={**env, "NL2SPARQL_LLM_CACHE": "off"}).cache_path is None
    assert LLMConfig.resolve(env={**env, "NL2SPARQL_LLM_CACHE": "x.sqlite"}).cache_path == Path("x.sqlite")
    assert LLMConfig.resolve(env=env, no_cache=True).cache_path is None
    assert LLMConfig.resolve(env=env, cache_path="y.sqlite").cache_path == Path("y.sqlite")
    cfg = write(home / "c.toml", "cache = false\n")
    assert LLMConfig.resolve(env=env, config_file=cfg).cache_path is None


@pytest.mark.parametrize("env,missing", [
    ({}, "no LLM configured"),
    ({"OPENAI_API_KEY": "k"}, "NL2SPARQL_LLM_MODEL"),
    ({"NL2SPARQL_LLM_MODEL": "m"}, "OPENAI_BASE_URL"),
])
def test_missing_settings_name_the_variables(home, env, missing):
    with pytest.raises(ConfigError, match=missing) as info:
        LLMConfig.resolve(env={"HOME": str(home), **env})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("text,match", [
    ('model = "m"\nmodle = "typo"\n', "unknown key"),
    ('model = "m\n', "not valid TOML"),
    ('model = "m"\nbase_url = "http://x/v1"\ntimeout = "soon"\n', "must be a number"),
    ('model = "m"\nbase_url = "http://x/v1"\nmax_retries = 1.5\n', "must be an integer"),
    ('model = "m"\nbase_url = "localhost:8000"\n', "http://"),
    ('model = "m"\nbase_url = "http://x/v1"\nmax_concurrency = 0\n', "at least 1"),
    ('model = "m"\nbase_url = "http://x/v1"\n[prices.m]\nin = 1\n', "prompt"),
])
def test_bad_config_files(home, text, match):
    cfg = write(home / "bad.toml", text)
    with pytest.raises(ConfigError, match=match) as info:
        LLMConfig.resolve(config_file=cfg, env={"HOME": str(home)})
    assert "\n" not in str(info.value)


def test_explicit_missing_file(home):
    with pytest.raises(ConfigError, match="not found"):
        LLMConfig.resolve(config_file=home / "nope.toml", env={"HOME": str(home)})


def test_tiers_and_manifest():
    config = LLMConfig(model="big", fast_model="small", api_key="secret")
    assert config.model_for("default") == "big" and config.model_for("fast") == "small"
    with pytest.raises(ValueError, match="tier"):
        config.model_for("huge")
    assert "secret" not in str(config.to_dict()) and config.to_dict()["fast_model"] == "small"


def test_the_default_response_cache_lives_in_the_project_cache_not_the_working_directory(home, tmp_path,
                                                                                         monkeypatch):
    monkeypatch.setenv("NL2SPARQL_CACHE", str(tmp_path / "project-cache"))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    config = LLMConfig.resolve(env={"HOME": str(home), "NL2SPARQL_LLM_MODEL": "m", "OPENAI_API_KEY": "sk-1"})
    assert config.cache_path == tmp_path / "project-cache" / "llm_cache.sqlite"
    assert LLMConfig(model="m").cache_path == config.cache_path
