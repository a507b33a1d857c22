"""The shard layout routes by a stable hash and remembers moved groups."""

import json
import subprocess
import sys

import pytest

from midas_graph._errors import InvalidInputError
from midas_graph._shards import Layout, ShardLayoutError, shard_of


def test_shard_of_is_stable_across_processes():
    # hash() is salted per process; shard_of must not be.
    code = "from midas_graph._shards import shard_of; print([shard_of(f'g{i}', 7) for i in range(50)])"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(other.stdout) == [shard_of(f"g{i}", 7) for i in range(50)]
    assert len({shard_of(f"g{i}", 7) for i in range(200)}) == 7


def test_layout_records_moves_and_refuses_another_count(tmp_path):
    root = tmp_path / "mem"
    layout = Layout.open(root, 4, engine="ladybug")
    g = "alice"
    home = layout.shard_for(g)
    layout.record_move(g, (home + 1) % 4)
    again = Layout.open(root)
    assert again.shard_for(g) == (home + 1) % 4 and again.n == 4
    again.record_move(g, home)  # moving home forgets the override
    assert Layout.open(root).moved == {}
    with pytest.raises(ShardLayoutError, match="holds 4 shards"):
        Layout.open(root, 5)
    with pytest.raises(ShardLayoutError, match="engine"):
        Layout.open(root, engine="kuzu")
    with pytest.raises(InvalidInputError, match="^shards"):
        Layout.open(tmp_path / "new")
    with pytest.raises(InvalidInputError, match="^group_id"):
        shard_of("", 3)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("x")
    with pytest.raises(ShardLayoutError, match="not empty"):
        Layout.open(tmp_path / "busy", 2)
