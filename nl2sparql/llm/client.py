"""The OpenAI-compatible chat client: tiers, retries, cache, concurrency, accounting.

One :class:`LLMClient` talks to any server speaking the chat-completions
protocol (OpenAI, vLLM, llama.cpp, Ollama). The SDK's own retries are off;
ours retry 408/409/429/5xx answers, connection errors and timeouts with
exponential backoff and jitter, and are counted in :attr:`LLMClient.usage`.
Every call ends by a deadline: each request waits at most ``timeout``
seconds, and retries stop when the call's ``deadline`` (config, or the
caller's absolute ``deadline=``) would pass. :attr:`LLMClient.notify`, when
set, gets one line per retry and, while a request waits, one every
:data:`WAITING_NOTICE` seconds (progress for long LLM work). A call that
gets no answer at all (every try timed out, could not connect or found the
server overloaded, until the retries or the configured deadline ran out)
marks the server as not answering: the client's later calls fail at once, so
a run that asks many times ends within about one call's deadline. (A call
given its own ``deadline=``, such as one question of ``ask``, marks nothing.)
"""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

import openai

from .cache import ResponseCache, cache_key
from .config import LLMConfig
from .errors import LLMError

Message = Mapping[str, Any]
_TRANSIENT_STATUS = {408, 409, 429}
#: Seconds between two "still waiting" lines while a request is in flight (see :attr:`LLMClient.notify`).
WAITING_NOTICE = 10.0


@dataclass(frozen=True)
class LLMResponse:
    """One answer: its text, the model that wrote it, token usage, whether it came from the cache.

    ``usage`` holds ``prompt_tokens``, ``completion_tokens`` and ``total_tokens``
    (for a cached answer, those of the original request). ``finish_reason`` is
    ``length`` when the answer was cut off by ``max_tokens``.
    """

    text: str
    model: str
    usage: dict[str, int] = field(default_factory=dict)
    cached: bool = False
    finish_reason: str | None = None

    @property
    def truncated(self) -> bool:
        """True when the server stopped the answer at the token limit."""
        return self.finish_reason == "length"


class _NotAnswering(LLMError):
    """A call whose every try failed to get an answer (timeouts, connection errors, overload) until its retries or
    its deadline ran out."""


class Usage:
    """Thread-safe totals of what a client did, for run manifests (:meth:`to_dict`).

    ``requests`` counts HTTP requests (retries included), ``calls`` the answers
    asked for, ``cached`` those served from the cache (no tokens, no cost),
    ``retries`` the requests repeated after a transient failure and ``failures``
    the calls that ended in an :class:`LLMError`.
    """

    _COUNTERS = ("calls", "requests", "cached", "retries", "failures", "prompt_tokens", "completion_tokens")

    def __init__(self, prices: Mapping[str, Mapping[str, float]] | None = None) -> None:
        self._lock = threading.Lock()
        self._prices = dict(prices or {})
        self._totals = dict.fromkeys(self._COUNTERS, 0)
        self._by_model: dict[str, dict[str, int]] = {}

    def add(self, **counts: int) -> None:
        """Add to the counters named in ``counts``."""
        with self._lock:
            for name, value in counts.items():
                self._totals[name] += value

    def add_tokens(self, model: str, prompt: int, completion: int) -> None:
        """Count the tokens of one answered request against ``model``."""
        with self._lock:
            self._totals["prompt_tokens"] += prompt
            self._totals["completion_tokens"] += completion
            row = self._by_model.setdefault(model, {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0})
            row["requests"] += 1
            row["prompt_tokens"] += prompt
            row["completion_tokens"] += completion

    def __getattr__(self, name: str) -> int:
        if name in Usage._COUNTERS:
            with self._lock:
                return self._totals[name]
        raise AttributeError(name)

    def cost(self) -> float | None:
        """The cost in USD of the tokens used, or None when no used model has a price."""
        with self._lock:
            priced = [(m, row) for m, row in self._by_model.items() if m in self._prices]
            if not priced:
                return None
            return sum(row["prompt_tokens"] * self._prices[m].get("prompt", 0.0) / 1e6
                       + row["completion_tokens"] * self._prices[m].get("completion", 0.0) / 1e6
                       for m, row in priced)

    def to_dict(self) -> dict[str, Any]:
        """The totals, per-model counts and cost as a JSON-ready dict."""
        cost = self.cost()
        with self._lock:
            out: dict[str, Any] = dict(self._totals)
            out["total_tokens"] = out["prompt_tokens"] + out["completion_tokens"]
            out["by_model"] = {m: dict(row) for m, row in self._by_model.items()}
        out["cost_usd"] = round(cost, 6) if cost is not None else None
        return out


class LLMClient:
    """A chat client over an OpenAI-compatible server, built from an :class:`LLMConfig`.

    ``sleep`` and ``rng`` are injectable for tests (backoff without waiting).
    ``cache`` overrides the cache built from ``config.cache_path``; pass
    ``use_cache=False`` to ignore any cache.
    """

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None, cache: ResponseCache | None = None,
                 use_cache: bool = True) -> None:
        self.config = config
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._rng_lock = threading.Lock()
        self._openai = openai.OpenAI(api_key=config.effective_api_key, base_url=config.effective_base_url,
                                     timeout=config.timeout, max_retries=0)
        if not use_cache:
            self.cache = None
        else:
            self.cache = cache if cache is not None else (
                ResponseCache(config.cache_path) if config.cache_path else None)
        self.usage = Usage(config.prices)
        self._seed_unsupported = False
        #: Called with one line per retry, and every :data:`WAITING_NOTICE` s of a request's wait (e.g. a CLI
        #: prints it); None: silent.
        self.notify: Callable[[str], None] | None = None
        self._until: float | None = None
        self._budget = 0.0
        #: Set when a whole call found the server not answering: later calls fail at once instead of waiting
        #: as long (a run's many calls stay bounded when the server hangs).
        self._down: LLMError | None = None

    def set_budget(self, seconds: float) -> None:
        """Bound all the calls still to come: none waits past ``seconds`` from now, and once they are spent
        every call fails at once (a run that asks the LLM many times stays bounded when the server hangs)."""
        self._budget = float(seconds)
        self._until = time.monotonic() + self._budget

    @classmethod
    def from_settings(cls, **settings: Any) -> "LLMClient":
        """A client from :meth:`LLMConfig.resolve` (flags > environment > config file)."""
        return cls(LLMConfig.resolve(**settings))

    def model_for(self, tier: str = "default") -> str:
        """The model answering ``tier`` (``default`` or ``fast``)."""
        return self.config.model_for(tier)

    # -- one request ---------------------------------------------------------------------

    def chat(self, messages: Sequence[Message] | str, tier: str = "default", *, temperature: float = 0.0,
             max_tokens: int | None = None, seed: int | None = None,
             response_format: Mapping[str, Any] | None = None, model: str | None = None,
             deadline: float | None = None) -> LLMResponse:
        """Ask for one answer to ``messages`` (a list of ``{role, content}``, or a user prompt string).

        ``seed`` (default: the config's) is sent when set; a server that rejects
        it is asked again without it. A cached answer makes no request. Raises
        :class:`LLMError` when the server refuses, the retries run out or the
        deadline passes (``deadline``: a :func:`time.monotonic` instant, else
        now + ``config.deadline``).
        """
        msgs = _normalize(messages)
        model = model or self.model_for(tier)
        seed = self.config.seed if seed is None else seed
        params: dict[str, Any] = {"temperature": temperature}
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        if seed is not None:
            params["seed"] = seed
        if response_format is not None:
            params["response_format"] = dict(response_format)
        self.usage.add(calls=1)
        key = cache_key(model, msgs, params)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.usage.add(cached=1)
                return LLMResponse(text=hit.get("text", ""), model=hit.get("model", model),
                                   usage=dict(hit.get("usage") or {}), cached=True,
                                   finish_reason=hit.get("finish_reason"))
        if self._down is not None:
            self.usage.add(failures=1)
            raise LLMError(f"the LLM server at {self.config.effective_base_url} is not answering, so no more "
                           f"requests are sent to it (an earlier call: {self._down})", status=self._down.status)
        own_deadline = deadline is None  # (a caller's deadline is the caller's business: it may be short)
        if deadline is None:
            deadline = time.monotonic() + float(self.config.deadline)
        if self._until is not None:
            if time.monotonic() >= self._until:
                self.usage.add(failures=1)
                raise LLMError(f"the LLM time budget of this run ({self._budget:g} s) is spent; going on without "
                               "the LLM")
            deadline = min(deadline, self._until)
        try:
            response = self._request(model, msgs, params, deadline)
        except _NotAnswering as exc:  # every try of a whole call failed: the next calls would wait as long
            if own_deadline:
                self._down = exc
            self.usage.add(failures=1)
            raise
        except LLMError:
            self.usage.add(failures=1)
            raise
        if self.cache is not None:
            self.cache.put(key, model, {"text": response.text, "model": response.model,
                                        "usage": response.usage, "finish_reason": response.finish_reason})
        return response

    def _request(self, model: str, msgs: list[dict[str, Any]], params: dict[str, Any],
                 deadline: float) -> LLMResponse:
        """Send one request, retrying transient failures until ``deadline``; the answer as an :class:`LLMResponse`."""
        sent = dict(params)
        if self._seed_unsupported:
            sent.pop("seed", None)
        seed_dropped = False
        attempt = 0
        start = time.monotonic()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._past_deadline(model, attempt, time.monotonic() - start)
            self.usage.add(requests=1)
            try:
                with self._waiting(model, deadline):
                    completion = self._openai.with_options(timeout=min(float(self.config.timeout), left)) \
                        .chat.completions.create(model=model, messages=msgs, **sent)
            except openai.BadRequestError as exc:
                if "seed" in sent and not seed_dropped and "seed" in _describe(exc).lower():
                    seed_dropped = self._seed_unsupported = True
                    sent.pop("seed")
                    continue
                raise self._refused(exc, model, attempt + 1) from exc
            except (openai.APIConnectionError, openai.APIStatusError) as exc:
                status = getattr(exc, "status_code", None)
                transient = status is None or status in _TRANSIENT_STATUS or status >= 500
                if not transient:
                    raise self._refused(exc, model, attempt + 1) from exc
                if attempt >= self.config.max_retries:
                    raise self._gave_up(exc, model, attempt + 1) from exc
                if self._down is not None:  # another call found the server not answering meanwhile
                    raise _NotAnswering(f"{_short(exc)}; {self._down}", status=status, attempts=attempt + 1) \
                        from exc
                wait = self._backoff(attempt, exc)
                left = deadline - time.monotonic()
                if wait >= left:
                    raise self._past_deadline(model, attempt + 1, time.monotonic() - start, exc) from exc
                if self.notify is not None:
                    self.notify(f"LLM request {attempt + 1} failed ({_short(exc)}); retry in {wait:.1f} s, "
                                f"{left:.0f} s to the deadline")
                self._sleep(wait)
                attempt += 1
                self.usage.add(retries=1)
                continue
            except (ValueError, openai.OpenAIError) as exc:  # a 200 whose body is not JSON, ...
                raise LLMError(f"the LLM server at {self.config.effective_base_url} did not answer with a chat "
                               f"completion ({_describe(exc)}); check that the base URL ends in /v1",
                               attempts=attempt + 1) from exc
            return self._to_response(completion, model)

    @contextmanager
    def _waiting(self, model: str, deadline: float) -> Iterator[None]:
        """While a request is in flight, tell :attr:`notify` every so often how long it has waited and when it
        stops (a run waiting on a slow or hanging server shows it)."""
        notify = self.notify
        if notify is None:
            yield
            return
        answered = threading.Event()
        start = time.monotonic()

        def remind() -> None:
            while not answered.wait(WAITING_NOTICE):
                now = time.monotonic()
                notify(f"waiting for the LLM ({model}) for {now - start:.0f} s; "
                       f"{max(0.0, deadline - now):.0f} s to the deadline")

        threading.Thread(target=remind, name="nl2sparql-llm-waiting", daemon=True).start()
        try:
            yield
        finally:
            answered.set()

    def _to_response(self, completion: Any, model: str) -> LLMResponse:
        """Turn the SDK's completion into an :class:`LLMResponse` and count its tokens.

        Tokens are counted against the requested ``model`` (the name the price
        table uses); the response keeps the name the server reported.
        """
        choices = getattr(completion, "choices", None)
        if not choices or getattr(choices[0], "message", None) is None:
            raise LLMError(f"the LLM server at {self.config.effective_base_url} did not answer with a chat "
                           "completion (check that the base URL ends in /v1)")
        choice = choices[0]
        raw = getattr(completion, "usage", None)
        prompt = int(getattr(raw, "prompt_tokens", 0) or 0)
        done = int(getattr(raw, "completion_tokens", 0) or 0)
        self.usage.add_tokens(model, prompt, done)
        return LLMResponse(text=choice.message.content or "", model=getattr(completion, "model", None) or model,
                           usage={"prompt_tokens": prompt, "completion_tokens": done, "total_tokens": prompt + done},
                           cached=False, finish_reason=choice.finish_reason)

    def _backoff(self, attempt: int, exc: Exception) -> float:
        """Seconds to wait before retry ``attempt + 1``: Retry-After if given, else 2^n backoff with jitter."""
        cap = self.config.backoff_max
        response = getattr(exc, "response", None)
        header = response.headers.get("retry-after") if response is not None else None
        if header:
            try:
                return min(max(float(header), 0.0), cap)
            except ValueError:
                pass
        delay = min(cap, self.config.backoff_base * (2 ** attempt))
        with self._rng_lock:
            return delay / 2 + self._rng.uniform(0, delay / 2)

    def _refused(self, exc: Exception, model: str, attempts: int) -> LLMError:
        """The error for an answer that retrying cannot fix (bad key, unknown model, bad request)."""
        status = getattr(exc, "status_code", None)
        url = self.config.effective_base_url
        hint = {401: "check OPENAI_API_KEY", 403: "check OPENAI_API_KEY and the model's access",
                404: "check the model name (NL2SPARQL_LLM_MODEL / --llm-model) and that the base URL ends in /v1",
                }.get(status, "check the request settings")
        return LLMError(f"the LLM server at {url} refused the request for model {model!r} "
                        f"(HTTP {status}: {_describe(exc)}); {hint}", status=status, attempts=attempts)

    def _gave_up(self, exc: Exception, model: str, attempts: int) -> LLMError:
        """The error once the retries for a transient failure are used up."""
        status = getattr(exc, "status_code", None)
        if isinstance(exc, openai.APITimeoutError):
            what = f"timed out after {self.config.timeout:g}s"
            hint = "check the server, or raise the timeout (--timeout, NL2SPARQL_LLM_TIMEOUT or the LLM config file)"
        elif status is None:
            what = f"could not connect ({_describe(exc)})"
            hint = "check that the server is running and OPENAI_BASE_URL / --llm-base-url"
        else:
            what = f"HTTP {status}: {_describe(exc)}"
            hint = "the server is overloaded or failing; try again later or lower --llm-concurrency"
        return _NotAnswering(f"LLM request to {self.config.effective_base_url} for model {model!r} failed after "
                             f"{attempts} attempt(s): {what}; {hint}", status=status, attempts=attempts)

    def _past_deadline(self, model: str, attempts: int, elapsed: float, exc: Exception | None = None) -> LLMError:
        """The error once the call's deadline has passed."""
        last = f"; last failure: {_short(exc)}" if exc is not None else ""
        return _NotAnswering(f"LLM request to {self.config.effective_base_url} for model {model!r} stopped at its "
                             f"deadline after {elapsed:.1f} s and {attempts} attempt(s){last}; check the server, or "
                             "raise the timeout (--timeout, NL2SPARQL_LLM_TIMEOUT or the LLM config file)",
                             status=getattr(exc, "status_code", None), attempts=attempts)

    # -- many requests -------------------------------------------------------------------

    def chat_many(self, message_lists: Sequence[Sequence[Message] | str], tier: str = "default", *,
                  max_concurrency: int | None = None, return_exceptions: bool = False,
                  **kwargs: Any) -> list[Any]:
        """Answer each message list, at most ``max_concurrency`` at once, in input order.

        ``kwargs`` are those of :meth:`chat`. With ``return_exceptions`` a failed
        item holds its :class:`LLMError` instead of raising the first failure.
        """
        items = list(message_lists)
        if not items:
            return []
        workers = max(1, min(max_concurrency or self.config.max_concurrency, len(items)))

        def one(messages):
            try:
                return self.chat(messages, tier, **kwargs)
            except LLMError as exc:
                if return_exceptions:
                    return exc
                raise

        if workers == 1:
            return [one(m) for m in items]
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="nl2sparql-llm") as pool:
            return list(pool.map(one, items))

    # -- DataFlow serving interface --------------------------------------------------------

    def generate_from_input(self, user_inputs: list[str], system_prompt: str = "",
                            json_schema: Mapping[str, Any] | None = None, *, tier: str = "default",
                            temperature: float = 0.0) -> list[str]:
        """The open-dataflow serving call: one answer text per user input, in order.

        ``system_prompt`` (if not empty) opens every conversation; ``json_schema``
        (a JSON schema, or an OpenAI ``json_schema`` response format) asks for
        structured output. Makes DataFlow serving objects and this client
        interchangeable in operators. Raises :class:`LLMError` on failure.
        """
        system = [{"role": "system", "content": system_prompt}] if system_prompt else []
        conversations = [system + [{"role": "user", "content": text}] for text in user_inputs]
        answers = self.chat_many(conversations, tier, temperature=temperature,
                                 response_format=_schema_format(json_schema))
        return [answer.text for answer in answers]

    def serving(self, tier: str = "default") -> "LLMServing":
        """A DataFlow-style serving object bound to ``tier`` (e.g. ``client.serving("fast")``)."""
        self.model_for(tier)
        return LLMServing(self, tier)

    def start_serving(self) -> None:
        """DataFlow serving hook; nothing to start for a remote server."""

    def cleanup(self) -> None:
        """DataFlow serving hook: release the connections and the cache."""
        self.close()

    def close(self) -> None:
        """Close the HTTP client and the cache file."""
        self._openai.close()
        if self.cache is not None:
            self.cache.close()

    def __enter__(self) -> "LLMClient":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class LLMServing:
    """A DataFlow serving object answering with one tier of an :class:`LLMClient`."""

    def __init__(self, client: LLMClient, tier: str = "default") -> None:
        self.client = client
        self.tier = tier

    def generate_from_input(self, user_inputs: list[str], system_prompt: str = "",
                            json_schema: Mapping[str, Any] | None = None) -> list[str]:
        """One answer text per user input, from this object's tier (see :meth:`LLMClient.generate_from_input`)."""
        return self.client.generate_from_input(user_inputs, system_prompt, json_schema, tier=self.tier)

    def start_serving(self) -> None:
        """DataFlow serving hook; nothing to start."""

    def cleanup(self) -> None:
        """DataFlow serving hook; the client is closed by its owner."""


def _normalize(messages: Sequence[Message] | str) -> list[dict[str, Any]]:
    """Messages as plain dicts with a role and content; a string is one user message."""
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    out = []
    for message in messages:
        if not isinstance(message, Mapping) or "role" not in message or "content" not in message:
            raise ValueError(f"a chat message must be a mapping with 'role' and 'content', got {message!r}")
        out.append(dict(message))
    if not out:
        raise ValueError("chat() needs at least one message")
    return out


def _schema_format(json_schema: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The ``response_format`` asking for ``json_schema`` (already a format, a named schema, or a bare one)."""
    if json_schema is None:
        return None
    if json_schema.get("type") in ("json_schema", "json_object"):
        return dict(json_schema)
    if "schema" in json_schema and "name" in json_schema:
        return {"type": "json_schema", "json_schema": dict(json_schema)}
    return {"type": "json_schema", "json_schema": {"name": "response", "schema": dict(json_schema)}}


def _short(exc: Exception) -> str:
    """A few words on a transport failure: ``timeout``, ``HTTP 503`` or ``connection error``."""
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    status = getattr(exc, "status_code", None)
    return f"HTTP {status}" if status is not None else "connection error"


def _describe(exc: Exception) -> str:
    """A one-line description of an SDK error (the server's message when it sent one)."""
    body = getattr(exc, "body", None)
    message = None
    if isinstance(body, Mapping):
        message = body.get("message") or body.get("error")
    elif isinstance(body, str):
        message = body
    text = " ".join(str(message or getattr(exc, "message", None) or exc).split())
    return text if len(text) <= 200 else text[:200] + "..."
