"""Command-line interfaces: ``nl2sparql-gen`` (KB, generation, scoring) and ``nl2sparql`` (translation)."""
