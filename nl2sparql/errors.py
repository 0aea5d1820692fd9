"""User-facing errors.

Every error a user can cause (bad path, malformed SPARQL, unreachable endpoint,
bad configuration) is raised as a subclass of :class:`Nl2SparqlError` whose
message is one line naming the problem and what to do. The CLI prints that
line and exits with status 2 instead of showing a traceback.
"""


class Nl2SparqlError(Exception):
    """Base class for errors that are reported to the user as one clear line."""


class ConfigError(Nl2SparqlError):
    """Bad or missing configuration (flags, environment, config file)."""


class QueryError(Nl2SparqlError):
    """A query was refused or failed; ``kind`` classifies why."""

    kind = "execution"


class QuerySyntaxError(QueryError):
    """The query does not parse."""

    kind = "parse"


class UpdateRefused(QueryError):
    """SPARQL Update (INSERT, DELETE, LOAD, ...) is refused: the KB is read-only."""

    kind = "update"


class QueryTimeout(QueryError):
    """The query ran past its time budget and was stopped."""

    kind = "timeout"


class UnmappedService(QueryError):
    """A SERVICE clause names an endpoint the embedded store cannot answer."""

    kind = "service"


class EndpointError(QueryError):
    """A remote endpoint is unreachable or answered with an error."""

    kind = "endpoint"


class DataError(Nl2SparqlError):
    """An input file is missing, unreadable or malformed."""


class ResourceLimit(QueryError):
    """A query ran past a resource cap other than time (the worker memory cap, the nesting depth)."""

    kind = "resource"
