"""The web UI (``nl2sparql ui``): a Gradio app that is a thin layer over :mod:`nl2sparql.api`.

Tabs: Translate, Agent, Analyze, Retrieve examples, Search ontology, Execute
SPARQL, Fix query, Generate, Score (one module each). Every error shows as a
message in the page; nothing is fetched from the internet.

>>> from nl2sparql.ui import Context, build_app, launch
>>> launch(build_app(Context()), port=7860)
"""

import os

# Gradio reads this when imported: no usage analytics and no version check over the network.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"

from .app import build_app, launch, warm_up  # noqa: E402
from .context import Context  # noqa: E402

__all__ = ["Context", "build_app", "launch", "warm_up"]
