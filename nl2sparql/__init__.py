"""nl2sparql: grow, check and use natural-language → SPARQL datasets for LiITA."""

__version__ = "0.1.0"
