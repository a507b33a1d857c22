"""One JSON-lines file written by a deterministic generator, or checked against it.

The data generators of eval/ (make_supersession_cases.py, make_supersession_dev2.py,
make_supersession_heldout.py, make_nli_public_set.py) and the tests that hold
their committed files to them render rows the same way: one JSON object per
line, non-ASCII kept as written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def render(rows) -> str:
    """The file's text: one JSON object per row and line."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def write_or_check(path: Path, rows, *, check: bool) -> int:
    """With ``check``: 0 when ``path`` holds exactly ``render(rows)``, else 1
    (and says so on stderr). Without: write it. Returns an exit code."""
    text = render(rows)
    if check:
        ok = path.exists() and path.read_text(encoding="utf-8") == text
        print(f"{path} is up to date" if ok else f"{path} differs from the generator; rerun without --check",
              file=sys.stderr)
        return 0 if ok else 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return 0
