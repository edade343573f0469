"""What changed between two tournament projections, and how a client applies it (PROTOCOL.md section 10).

A `tournament:{tid}` update carries a delta in its `data` (docs/tournament-channel.md): only what
changed since the projection at the update's `base` version. Every member is optional:

- `set`: `{field: value}`: top-level fields whose new value replaces the old one whole (`name`,
  `queue`, `standings`, ...; also `draw` when a draw is made, redrawn or gone, and `tables` /
  `players` when one was removed or their order changed);
- `unset`: `[field, ...]`: top-level fields that are gone;
- `tables`, `players`: `[entry, ...]`: each entry whole, matched by `id`; an id not held yet is
  appended (the others keep their place);
- `draw`: `{field: value}`: the draw's own fields that changed (`status`, `champion`, ...), each
  whole; the draw itself is kept;
- `matches`: `[entry, ...]`: draw matches, each whole, matched by `key` in `draw.matches`
  (appended when new).

`apply(diff(a, b), a) == b` for any two projections (the `version` field aside: the message
carries it). Pure: no I/O; `apply` copies what it changes and never touches its input.
"""

from __future__ import annotations

from typing import Any

# Top-level lists whose entries are sent one by one, and the field that names each entry.
KEYED = {"tables": "id", "players": "id"}
MATCH_KEY = "key"
SKIP = ("version",)  # carried by the message, not the delta


def _keyed(old: Any, new: Any, ident: str) -> list[Any] | None:
    """The changed and new entries of `new`, or None when only a whole list says it (an entry
    removed, the order changed, an entry without its id)."""
    if not isinstance(old, list) or not isinstance(new, list) or len(new) < len(old):
        return None
    if not all(isinstance(e, dict) and ident in e for e in (*old, *new)):
        return None
    if [e[ident] for e in new[: len(old)]] != [e[ident] for e in old]:
        return None
    if len({e[ident] for e in new}) != len(new):
        return None
    return [n for o, n in zip(old, new, strict=False) if o != n] + new[len(old):]


def _draw(old: Any, new: Any) -> tuple[dict[str, Any], list[Any]] | None:
    """(the draw's own fields changed, its matches changed), or None: send the draw whole."""
    if not isinstance(old, dict) or not isinstance(new, dict) or set(old) - set(new):
        return None
    matches = _keyed(old.get("matches"), new.get("matches"), MATCH_KEY) if "matches" in old else None
    if matches is None and old.get("matches") != new.get("matches"):
        return None
    own = {k: v for k, v in new.items() if k != "matches" and (k not in old or old[k] != v)}
    return own, matches or []


def diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The delta that turns `old` into `new` (both tournament projections, or their pure parts)."""
    out: dict[str, Any] = {}
    whole: dict[str, Any] = {}
    for name, value in new.items():
        if name in SKIP or (name in old and old[name] == value):
            continue
        if name not in old:
            whole[name] = value
        elif name in KEYED:
            changed = _keyed(old[name], value, KEYED[name])
            if changed is None:
                whole[name] = value
            elif changed:
                out[name] = changed
        elif name == "draw":
            parts = _draw(old[name], value)
            if parts is None:
                whole[name] = value
            else:
                own, matches = parts
                if own:
                    out["draw"] = own
                if matches:
                    out["matches"] = matches
        else:
            whole[name] = value
    gone = [name for name in old if name not in new and name not in SKIP]
    if whole:
        out["set"] = whole
    if gone:
        out["unset"] = gone
    return out


def _upsert(entries: list[Any], changed: list[Any], ident: str) -> list[Any]:
    out = list(entries)
    where = {e.get(ident): i for i, e in enumerate(out) if isinstance(e, dict)}
    for entry in changed:
        i = where.get(entry.get(ident))
        if i is None:
            where[entry.get(ident)] = len(out)
            out.append(entry)
        else:
            out[i] = entry
    return out


def apply(proj: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """`proj` with `delta` applied (a new dict; what changed is copied, the rest shared)."""
    out = dict(proj)
    for name, value in (delta.get("set") or {}).items():
        out[name] = value
    for name in delta.get("unset") or ():
        out.pop(name, None)
    for name, ident in KEYED.items():
        if delta.get(name):
            out[name] = _upsert(out.get(name) or [], delta[name], ident)
    if delta.get("draw") or delta.get("matches"):
        draw = dict(out.get("draw") or {})
        draw.update(delta.get("draw") or {})
        if delta.get("matches"):
            draw["matches"] = _upsert(draw.get("matches") or [], delta["matches"], MATCH_KEY)
        out["draw"] = draw
    return out
