"""Who may use which groups over MCP: bearer tokens from a keys file.

``midas-graph serve-mcp --http PORT --keys FILE`` requires every HTTP request
to carry ``Authorization: Bearer <token>``; the token names the groups its
holder may use. The keys file is TOML or JSON::

    # keys.toml
    [tokens]
    "tok-5b0e1c6f3a9d4e27b8c1" = ["alice"]                                    # one group, its default
    "tok-9d2a7c4e1b3f5a60d8e2" = { groups = ["bob", "team"], default = "team", name = "bob" }

A token is at least 16 characters. The first group listed is the default
(the group a call uses when it names none) unless ``default`` says which.
The server keeps only SHA-256 digests of the tokens. The SDK's bearer
middleware (``mcp.server.auth``) checks every request through
:class:`KeyVerifier`; tools read the caller's :class:`Grant`
(docs/mcp.md, "Tenants and tokens").
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._errors import InvalidInputError

MIN_TOKEN_LENGTH = 16


@dataclass(frozen=True)
class Grant:
    """What one caller may use: ``groups`` (``None``: any group, the
    single-user case of stdio or of HTTP without keys) and ``default``, the
    group of a call that names none."""

    groups: frozenset[str] | None
    default: str
    name: str = ""

    def allows(self, group_id: str) -> bool:
        return self.groups is None or group_id in self.groups


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def load_keys(path: str | Path) -> dict[str, Grant]:
    """Token digest -> grant, from a keys file (TOML, or JSON when it ends
    in ``.json``). Errors name the file and the entry; they never quote a
    token."""
    p = Path(path)
    bad = lambda msg: InvalidInputError("keys", f"{p}: {msg}")  # noqa: E731
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise bad(f"cannot read it ({exc.strerror or exc})") from None
    try:
        data = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise bad(f"not valid {'JSON' if p.suffix.lower() == '.json' else 'TOML'} ({exc})") from None
    tokens = data.get("tokens") if isinstance(data, dict) else None
    if not isinstance(tokens, dict) or not tokens:
        raise bad("expected a [tokens] table mapping each token to its groups")
    out: dict[str, Grant] = {}
    for n, (token, spec) in enumerate(tokens.items(), 1):
        where = f"token #{n}"
        if not isinstance(token, str) or len(token) < MIN_TOKEN_LENGTH or token != token.strip():
            raise bad(f"{where}: a token is a string of at least {MIN_TOKEN_LENGTH} characters, no spaces around")
        if isinstance(spec, list):
            spec = {"groups": spec}
        if not isinstance(spec, dict) or set(spec) - {"groups", "default", "name"}:
            raise bad(f"{where}: expected a list of groups or {{groups = [...], default = ..., name = ...}}")
        groups = spec.get("groups")
        if not isinstance(groups, list) or not groups or not all(isinstance(g, str) and g.strip() for g in groups):
            raise bad(f"{where}: groups must be a non-empty list of group names")
        default = spec.get("default", groups[0])
        if default not in groups:
            raise bad(f"{where}: default {default!r} is not one of its groups")
        name = spec.get("name", "")
        if not isinstance(name, str):
            raise bad(f"{where}: name must be a string")
        out[digest(token)] = Grant(frozenset(groups), default, name)
    return out


class KeyVerifier:
    """The SDK's ``TokenVerifier`` over a keys file: a known token becomes
    an access token whose ``client_id`` is its digest's first 16 hex digits
    (sessions are bound to it by the SDK); anything else is refused (401)."""

    def __init__(self, grants: dict[str, Grant]) -> None:
        self.by_client = {d[:16]: g for d, g in grants.items()}
        self._digests = {d[:16]: d for d in grants}

    async def verify_token(self, token: str) -> Any:
        from mcp.server.auth.provider import AccessToken

        d = digest(token)
        if self._digests.get(d[:16]) != d:
            return None
        g = self.by_client[d[:16]]
        return AccessToken(token=d, client_id=d[:16], scopes=[], subject=g.name or None)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
