"""Fixtures of the reliability corpus (see ``reliability_helpers.py``)."""

from reliability_helpers import clean_env, endpoint, hanging, victim  # noqa: F401 - fixtures
