"""The service map: which SERVICE targets a query may name, and what answers each.

A LiITA query reaches CompL-it with ``SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>``.
A private mirror cannot reach that host, and a generated or LLM-written query
must never make a server call an arbitrary URL. So every SERVICE target is
looked up in a map before a query is sent anywhere:

* ``IRI=graph``: answer from the named graph ``IRI`` on the same KB
  (``SERVICE <IRI>`` becomes ``GRAPH <IRI>``);
* ``IRI=URL``: the remote endpoint calls ``URL`` instead (``SERVICE <URL>``);
  only a remote endpoint can do this, the embedded store makes no network calls.

A target in no entry is refused with one line. The defaults: the embedded
store answers CompL-it from its local graph; a remote endpoint passes
``SERVICE <CompL-it>`` through, as the live LiITA endpoint federates. Entries
come from ``--service IRI=…`` (repeatable) or ``NL2SPARQL_SERVICES``
(entries separated by whitespace or commas) and extend or replace the defaults.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping
from urllib.parse import urlsplit

from ..errors import ConfigError, EndpointError
from ..namespaces import COMPLIT_SERVICE

GRAPH = "graph"
_SPLIT = re.compile(r"[\s,]+")


def check_endpoint_url(url: str, what: str = "endpoint URL") -> str:
    """``url`` when it is an absolute http(s) URL a client can send to; :class:`EndpointError` naming the flaw otherwise."""
    if not isinstance(url, str) or not url:
        raise EndpointError(f"the {what} is empty: use http(s)://host/path, e.g. https://liita.it/sparql")
    bad = next((c for c in url if ord(c) <= 0x20 or ord(c) == 0x7F), None)
    if bad is not None:
        raise EndpointError(f"the {what} {url!r} contains {'a space' if bad == ' ' else repr(bad)}: "
                            "remove it (percent-encode spaces as %20)")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as exc:
        raise EndpointError(f"the {what} {url!r} is malformed ({exc}); use http(s)://host[:port]/path") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise EndpointError(f"{url!r} is not an endpoint URL ({what}; scheme {parts.scheme or 'missing'!r}): "
                            "use http(s)://host/path, e.g. https://liita.it/sparql")
    if not parts.hostname:
        raise EndpointError(f"the {what} {url!r} names no host; use http(s)://host/path")
    return url


def _check_iri(iri: str) -> str:
    check_endpoint_url(iri, "service IRI")
    if any(seg in ("..", ".") for seg in urlsplit(iri).path.split("/")):
        raise ConfigError(f"service IRI {iri!r} has dot segments; write it without ./ and ../")
    return iri


@dataclass(frozen=True)
class ServiceMap:
    """Service IRI → local graph (``graphs``) or endpoint URL to call instead (``endpoints``)."""

    graphs: dict[str, str] = field(default_factory=dict)
    endpoints: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def parse(entries: Iterable[str] | str | None) -> "ServiceMap":
        """Read ``IRI=graph`` / ``IRI=URL`` entries (a string is split on whitespace and commas)."""
        if entries is None:
            return ServiceMap()
        if isinstance(entries, str):
            entries = [e for e in _SPLIT.split(entries) if e]
        graphs: dict[str, str] = {}
        endpoints: dict[str, str] = {}
        for entry in entries:
            iri, sep, target = str(entry).strip().partition("=")
            if not sep or not iri or not target:
                raise ConfigError(f"service map entry {entry!r} is not IRI=graph or IRI=URL "
                                  f"(e.g. {COMPLIT_SERVICE}=graph)")
            _check_iri(iri)
            if target.lower() == GRAPH:
                graphs[iri] = iri
                endpoints.pop(iri, None)
            else:
                endpoints[iri] = check_endpoint_url(target, f"endpoint URL for service {iri}")
                graphs.pop(iri, None)
        return ServiceMap(graphs, endpoints)

    def over(self, base: "ServiceMap") -> "ServiceMap":
        """These entries over ``base``'s (an IRI in both takes this map's target)."""
        graphs = {k: v for k, v in base.graphs.items() if k not in self.endpoints}
        endpoints = {k: v for k, v in base.endpoints.items() if k not in self.graphs}
        return ServiceMap({**graphs, **self.graphs}, {**endpoints, **self.endpoints})

    def describe(self) -> dict[str, str]:
        """JSON-ready: IRI → ``graph`` or the endpoint URL."""
        return {**{k: GRAPH for k in self.graphs}, **self.endpoints}


EMBEDDED_DEFAULT = ServiceMap(graphs={COMPLIT_SERVICE: COMPLIT_SERVICE})
REMOTE_DEFAULT = ServiceMap(endpoints={COMPLIT_SERVICE: COMPLIT_SERVICE})


def service_map(entries: Iterable[str] | str | Mapping[str, str] | ServiceMap | None = None,
                env: Mapping[str, str] | None = None) -> ServiceMap:
    """The user's entries: ``entries`` when given, else ``NL2SPARQL_SERVICES`` (empty map when neither)."""
    if isinstance(entries, ServiceMap):
        return entries
    if isinstance(entries, Mapping):
        entries = [f"{k}={v}" for k, v in entries.items()]
    if entries is not None and not isinstance(entries, str):
        entries = list(entries) or None
    if entries is None:
        entries = (os.environ if env is None else env).get("NL2SPARQL_SERVICES") or None
    return ServiceMap.parse(entries)
