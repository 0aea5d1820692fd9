"""Copy the browser tests' screenshots of every tab into docs/, small enough to keep in the repository.

``pytest tests/test_ui_browser.py`` saves a screenshot of each tab in
``cache/ui-screenshots/``; this script crops each to its first 1,800 pixels
and stores it with a 256-colour palette as ``docs/ui-<tab>.png`` (the README
shows them).

    python docs/ui_screenshots.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[1]
SHOTS = REPO / "cache" / "ui-screenshots"
#: docs/ui-<name>.png ← cache/ui-screenshots/<shot>.png, in the tabs' order.
TABS = {"translate": "translate", "agent": "agent-run", "analyze": "analyze", "retrieve": "retrieve",
        "ontology": "ontology", "execute": "execute", "fix": "fix", "generate": "generate", "score": "score"}
MAX_HEIGHT = 1800


def main() -> int:
    missing = [shot for shot in TABS.values() if not (SHOTS / f"{shot}.png").is_file()]
    if missing:
        print(f"no screenshot {', '.join(missing)} in {SHOTS}: run pytest tests/test_ui_browser.py first",
              file=sys.stderr)
        return 2
    for name, shot in TABS.items():
        image = Image.open(SHOTS / f"{shot}.png").convert("RGB")
        image = image.crop((0, 0, image.width, min(image.height, MAX_HEIGHT)))
        out = REPO / "docs" / f"ui-{name}.png"
        image.quantize(256, dither=Image.Dither.NONE).save(out, optimize=True)
        print(f"{out.relative_to(REPO)}: {image.width}×{image.height}, {out.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
