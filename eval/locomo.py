"""Loader of the LoCoMo conversations (../shared/data/locomo, CC BY-NC 4.0,
Maharana et al., ACL 2024) as midas_graph episodes.

Turns carry no time of their own, only sessions ("1:56 pm on 8 May, 2023");
each turn gets its session's time plus its index in seconds, so that order
is kept. A shared photo's caption is appended to the turn ("[photo: ...]").
The turn's ``dia_id`` ("D1:3") becomes the episode name, so that evidence can
be matched; one memory group per conversation.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass
from pathlib import Path

DATA = Path(os.environ.get("MIDAS_LOCOMO", Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo"))
UTC = dt.timezone.utc


@dataclass
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    episodes: list[dict]          # add_episodes rows: content, speaker, reference_time, name
    qa: list[dict]


def parse_session_time(text: str) -> dt.datetime:
    """'1:56 pm on 8 May, 2023' -> aware UTC."""
    return dt.datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def load(path: Path | None = None) -> list[Conversation]:
    path = Path(path) if path else DATA / "locomo10.json"
    if not path.is_file():
        raise SystemExit(f"LoCoMo not found at {path} (set MIDAS_LOCOMO to its folder)")
    out = []
    for raw in json.loads(path.read_text("utf-8")):
        conv = raw["conversation"]
        sessions = sorted(
            (int(k.split("_")[1]), v) for k, v in conv.items()
            if k.startswith("session_") and not k.endswith("date_time") and isinstance(v, list)
        )
        episodes = []
        for n, turns in sessions:
            when = parse_session_time(conv[f"session_{n}_date_time"])
            for i, t in enumerate(turns):
                content = t["text"]
                if t.get("blip_caption"):
                    content = f"{content} [photo: {t['blip_caption']}]"
                episodes.append({
                    "content": content, "speaker": t["speaker"], "name": t["dia_id"],
                    "reference_time": when + dt.timedelta(seconds=i),
                })
        out.append(Conversation(raw["sample_id"], (conv["speaker_a"], conv["speaker_b"]), episodes, raw["qa"]))
    return out
