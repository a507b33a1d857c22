"""A memory over several shard files, one Ray actor per file (``pip install 'midas-graph[cluster]'``).

>>> from midas_graph.cluster import Cluster                      # doctest: +SKIP
>>> with Cluster("mem/", shards=4) as cluster:                   # doctest: +SKIP
...     mem = cluster.memory()
...     mem.add_episode("I moved to Lisbon.", speaker="Ann", group_id="u42")
...     mem.current("Ann", group_id="u42")

A group lives on one shard (``_shards.Layout``: a stable hash of its id, or
where a rebalance moved it), and every call that names a group goes to the
actor that owns that shard's file. The actor opens ``Memory(path)`` once,
loads the models once, and is the one process that writes the file. Paths
come from the layout's root: on several machines it is a directory every node
sees at the same path (a shared filesystem), or each shard's actor is pinned
to the node that holds its file (docs/scaling.md, "Ray cluster").

Ray is imported when a :class:`Cluster` starts, never by ``import midas_graph``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ._errors import InvalidInputError, MidasError
from ._routing import Call, Outcome, Router, install
from ._shards import Layout

__all__ = ["Cluster", "ClusterError", "ClusterMemory", "start_local_ray"]

#: Ray namespace of the shard actors (an actor's name also carries its layout's root).
NAMESPACE = "midas_graph"


class ClusterError(MidasError):
    """Ray is missing, or a shard actor could not start or died."""


#: Ray resolves 127.0.0.1 to the machine's routable address unless its
#: "cluster mode" is off; off, every Ray process listens on 127.0.0.1 only.
_LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError("midas_graph.cluster needs Ray: pip install 'midas-graph[cluster]'") from None
    return ray


def _loopback() -> Any:
    """Ray with 127.0.0.1 left as it is (a Ray on this machine only)."""
    os.environ.setdefault(_LOOPBACK_ENV, "0")
    ray = _ray()
    from ray._private import ray_constants  # read when ray was imported before the variable was set

    ray_constants.ENABLE_RAY_CLUSTER = os.environ[_LOOPBACK_ENV] not in ("0", "false", "False")
    return ray


def start_local_ray(num_cpus: int | None = None, temp_dir: str | os.PathLike | None = None) -> Any:
    """Start a one-machine Ray for this process: ``num_cpus`` (default the
    cores), no dashboard, every process listening on 127.0.0.1 only, its
    session files under ``temp_dir`` (keep it short: Ray's sockets live
    there), worker output in its log files rather than on our stdout (an
    MCP server's stdout is its protocol). What :class:`Cluster` does when
    it starts one; tests and benchmarks call it to share one Ray."""
    ray = _loopback()
    ray.init(num_cpus=num_cpus, include_dashboard=False, _node_ip_address="127.0.0.1",
             _temp_dir=str(Path(temp_dir).resolve()) if temp_dir is not None else None,
             namespace=NAMESPACE, log_to_driver=False)
    return ray


class Cluster:
    """Starts (``address=None``) or joins (``address="auto"`` or
    ``"host:port"``) a Ray cluster, and runs one actor per shard of the
    sharded memory at ``root`` (created with ``shards`` files when new).

    Starting: :func:`start_local_ray` (127.0.0.1 only, ``num_cpus``, no
    dashboard, files under ``temp_dir``, default Ray's ``/tmp/ray``).
    Joining: Ray's own settings. Either way, a Ray already initialised in this process is
    used as it is (and left running by :meth:`close`).

    Actors are named ``shard-<i>-<root hash>`` in the ``midas_graph``
    namespace and found again when they exist (another driver of the same
    cluster started them: they are used, and left to that driver). ``detached=False`` (default): they end with the
    driver that started them, which lets go of the files; a restart starts
    new actors on the same files, which answer the same. ``detached=True``:
    they outlive it (a long-running cluster serving several drivers, the MCP
    server and a backfill, say); :meth:`close` with ``kill=True`` ends them.

    ``concurrency``: calls an actor runs at once, on threads (as the
    one-file MCP server runs its tools): a read need not wait for a write's
    parsing and embedding; the store serialises what must be.
    ``preload``: each actor loads spaCy and the ONNX models when it starts
    (a first call would otherwise pay 10-20 s). ``model_threads``: onnxruntime
    threads per actor (default 1: parallelism comes from the shards).
    ``pin``: shard -> Ray node id, for files on a node's own disk: that
    shard's actor runs on that node only (the directory is then the same
    path on every node, each holding its shards' files; docs/scaling.md, "Ray cluster").
    ``clock`` (tests): each actor gets a copy.
    """

    def __init__(self, root: str | os.PathLike, shards: int | None = None, *, address: str | None = None,
                 num_cpus: int | None = None, temp_dir: str | os.PathLike | None = None,
                 engine: str | None = None, attributes: Mapping[str, str] | None = None, clock: Any = None,
                 preload: bool = True, detached: bool = False, model_threads: int | None = 1,
                 pin: Mapping[int, str] | None = None, concurrency: int = 8) -> None:
        ray = _ray()
        engine = engine or os.environ.get("MIDAS_GRAPH_ENGINE") or "ladybug"
        self.layout = Layout.open(Path(root).resolve(), shards, engine=engine)
        self.engine = self.layout.engine or engine
        self._ray = ray
        self._owns_ray = False
        self.detached = detached
        if not ray.is_initialized():
            try:
                if address is None:
                    start_local_ray(num_cpus, temp_dir)
                else:
                    if address.split("://")[-1].startswith(("127.", "localhost")):
                        _loopback()  # a Ray started by start_local_ray, joined on 127.0.0.1
                    ray.init(address=address, namespace=NAMESPACE, log_to_driver=False)
            except Exception as exc:  # ConnectionError, ValueError, RuntimeError: Ray's own
                what = "start a local Ray" if address is None else f"join the Ray cluster at {address!r}"
                raise ClusterError(f"cannot {what}: {_cause(exc)}") from None
            self._owns_ray = True
        from ._shard_actor import ShardServer

        tag = hashlib.blake2b(str(self.layout.root).encode("utf-8"), digest_size=4).hexdigest()
        env = {"MIDAS_GRAPH_ENGINE": self.engine}
        if model_threads is not None:
            env["MIDAS_MODEL_THREADS"] = str(model_threads)
        remote = ray.remote(ShardServer)
        self.actors = []
        self._owned: list[Any] = []  # the actors this driver started (the others, it found running)
        for i in range(self.layout.n):
            name = f"shard-{i}-{tag}"
            try:  # another driver's actor on this file: use it, leave it to its owner
                self.actors.append(ray.get_actor(name, namespace=NAMESPACE))
                continue
            except ValueError:
                pass
            opts: dict[str, Any] = dict(name=name, namespace=NAMESPACE, get_if_exists=True,
                                        num_cpus=0, max_concurrency=concurrency, max_restarts=0,
                                        runtime_env={"env_vars": env})
            if detached:
                opts["lifetime"] = "detached"
            if pin and i in pin:  # the node whose disk holds this shard's file
                from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

                opts["scheduling_strategy"] = NodeAffinitySchedulingStrategy(pin[i], soft=False)
            self.actors.append(remote.options(**opts).remote(
                str(self.layout.path(i)), i, engine=self.engine, attributes=attributes, clock=clock,
                preload=preload))
            self._owned.append(self.actors[-1])
        try:  # wait until every actor has opened its file (and loaded its models)
            answers = ray.get([a.ready.remote() for a in self.actors])
        except Exception as exc:
            self.close(kill=True)
            raise ClusterError(f"a shard actor failed to start: {_cause(exc)}") from None
        failed = [value for status, value in answers if status == "err"]
        if failed:  # a file locked by another process, damaged, of a newer schema...
            self.close(kill=True)
            raise failed[0]
        self.shards = [value for _, value in answers]
        self._memory: ClusterMemory | None = None
        self._attributes = attributes

    def memory(self) -> "ClusterMemory":
        """The ``Memory``-compatible front of this cluster."""
        if self._memory is None:
            self._memory = ClusterMemory(self, attributes=self._attributes)
        return self._memory

    def actor(self, group_id: str) -> Any:
        """The actor that owns ``group_id``."""
        return self.actors[self.layout.shard_for(group_id)]

    def get(self, refs: Any) -> Any:
        """``ray.get``, a dead actor said plainly."""
        try:
            return self._ray.get(refs)
        except self._ray.exceptions.RayActorError as exc:
            raise ClusterError(f"a shard actor died: {_cause(exc)}") from None

    def close(self, *, kill: bool | None = None) -> None:
        """Let go of the shards: each actor this cluster started closes its
        file (checkpointed), then ends, unless it is detached (``kill=True``
        ends those too). Actors it found running (another driver's) are left
        as they are. Shuts down the Ray this cluster started."""
        ray = self._ray
        self.actors = []
        actors, self._owned = getattr(self, "_owned", []), []
        try:
            ray.get([a.close.remote() for a in actors], timeout=120)
        except Exception:  # noqa: BLE001 - a dead actor has let go of its file already
            pass
        if kill if kill is not None else not self.detached:
            for a in actors:
                ray.kill(a, no_restart=True)
            for a in actors:  # wait until Ray has seen each one die (its name is free again)
                try:
                    ray.get(a.ping.remote())
                except ray.exceptions.RayActorError:
                    pass
        if self._owns_ray and ray.is_initialized():
            ray.shutdown()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cause(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


# -- the Memory-compatible front ---------------------------------------------------------

class _Actors:
    """The :class:`~midas_graph._routing.Shards` of a ClusterMemory: each call
    sent to its shard's actor, all of them before any answer is awaited."""

    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster

    def run(self, calls: Sequence[Call]) -> list[Outcome]:
        actors = self._cluster.actors
        return self._cluster.get([actors[i].call.remote(name, args, kwargs) for i, name, args, kwargs in calls])


class ClusterMemory(Router):
    """The public ``Memory`` surface over a :class:`Cluster`: the same
    methods, arguments and return types, each call answered by the actor
    that owns the group (routed as :class:`~midas_graph.ShardedMemory`
    routes, by the same code: ``_routing``). A call that names no group where ``Memory`` allows
    that (``episode(id)``, ``retract(id)``, ``stats()``, ``check()``) asks
    every shard. ``add_facts`` / ``add_episodes`` whose rows name groups on
    several shards check every row first (an error names its index), then
    write shard by shard (each shard's rows in their order)."""

    read_only = False

    def __init__(self, cluster: Cluster, *, attributes: Mapping[str, str] | None = None) -> None:
        from ._registry import AttributeRegistry

        self._cluster = cluster
        self._shards = _Actors(cluster)
        self.registry = AttributeRegistry.default().extend(attributes or {})

    @property
    def engine(self) -> str:
        return self._cluster.engine

    @property
    def path(self) -> str:
        return str(self._cluster.layout.root)

    @property
    def layout(self) -> Layout:  # type: ignore[override]
        return self._cluster.layout

    def __repr__(self) -> str:
        return f"ClusterMemory(root={self.path!r}, shards={self.layout.n}, engine={self.engine!r})"

    def close(self) -> None:
        """Close the cluster (its actors close their files)."""
        self._cluster.close()

    def __enter__(self) -> "ClusterMemory":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def now(self):
        """The latest of the shards' clocks (never before a write any shard made)."""
        return max(self._ok(self._ask("now")))

    def add_facts(self, rows: Iterable[Any], *, group_id: str = "default", batch_size: int = 20_000,
                  progress: bool | None = None) -> list[Any]:
        return self._bulk("facts", "add_facts", rows, group_id, {"batch_size": batch_size, "progress": progress})

    def add_episodes(self, episodes: Iterable[Any], *, group_id: str = "default",
                     progress: bool | None = None) -> list[Any]:
        return self._bulk("episodes", "add_episodes", episodes, group_id, {"progress": progress})

    def _bulk(self, kind: str, name: str, rows: Any, group_id: str, kwargs: dict[str, Any]) -> list[Any]:
        """Rows checked by their shards (all of them before any writes, when
        they span several), then written by the router, shard by shard."""
        if isinstance(rows, (str, bytes, Mapping)):
            field = "rows" if kind == "facts" else "episodes"
            raise InvalidInputError(field, f"expected an iterable of {field}, not a single one")
        rows = list(rows)
        self._owner(group_id)
        groups: list[str] = []
        for row in rows:
            g = (row.get("group_id") if isinstance(row, Mapping) else None) or group_id
            try:
                self._owner(g)
            except InvalidInputError:
                g = group_id  # the shard's own check names the row
            groups.append(g)
        by_shard = self._by_shard(groups)
        if len(by_shard) > 1:  # every row checked before any shard writes
            actors = self._cluster.actors
            refs = [actors[s].validate.remote(kind, [(i, rows[i]) for i in idx], group_id)
                    for s, idx in by_shard.items()]
            self._ok(self._cluster.get(refs))
        return self._write_split(name, rows, groups, group_id, kwargs)

    def tier(self, item: Any) -> str:
        return self._call(self._owner(_group_of(item)), "tier", (item,))

    def memory_value(self, item: Any) -> float:
        return self._call(self._owner(_group_of(item)), "memory_value", (item,))

    @property
    def nli_threshold(self) -> float:
        return self._cluster.get(self._cluster.actors[0].nli_threshold.remote())

    # -- the whole memory, for comparing (tests, benchmarks) -------------------------------
    def export_rows(self) -> list[dict[str, Any]]:
        """Every shard's export rows, shard after shard (``_backfill.canonical`` compares them)."""
        return [r for part in self._cluster.get([a.export.remote() for a in self._cluster.actors]) for r in part]


def _group_of(item: Any) -> str:
    g = getattr(item, "group_id", None)
    if not isinstance(g, str):
        raise InvalidInputError("item", "expected a Fact or an Episode")
    return g


def _install() -> None:
    from ._memory import Memory

    install(ClusterMemory)
    for name in ("add_facts", "add_episodes", "tier", "memory_value", "now"):
        getattr(ClusterMemory, name).__doc__ = getattr(Memory, name).__doc__


_install()
