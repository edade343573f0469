// Following `tournament:{tid}` (PROTOCOL.md section 10, docs/tournament-channel.md), for every page
// that shows a tournament (board, bracket, desk). The hub answers a subscribe with the whole
// projection (`snapshot`) and then sends only what changed (`update`: a delta in `data`, the version
// it applies to in `base`). This module keeps the page's copy: it applies each delta and hands the
// page the whole projection, as if every update were a snapshot. When an update does not apply to
// the copy held (a gap: `base` is not its version) the copy is dropped and the channel subscribed
// again for a fresh snapshot; a hub that refuses (`too_many_snapshots`) is asked again later.
//
//   const feed = followTournament(watch, tid, (proj, msg) => render(proj), { onError: (code) => ... });
//   feed.projection()  // the projection now (or null before the first snapshot)

const RETRY_MS = 15000; // after too_many_snapshots (at most 20 snapshots of a channel a minute)

/** Entries of `list` with `changed` put in by `ident` (replaced in place, or appended when new). */
function upsert(list, changed, ident) {
  const out = (list || []).slice();
  const at = new Map(out.map((e, i) => [e && e[ident], i]));
  for (const entry of changed) {
    const i = at.get(entry[ident]);
    if (i === undefined) { at.set(entry[ident], out.length); out.push(entry); } else out[i] = entry;
  }
  return out;
}

/** The projection `proj` with an update's `data` applied (a new object; `proj` is not changed). */
export function applyDelta(proj, data, version) {
  const out = { ...proj };
  for (const [name, value] of Object.entries(data.set || {})) out[name] = value;
  for (const name of data.unset || []) delete out[name];
  if (data.tables) out.tables = upsert(out.tables, data.tables, "id");
  if (data.players) out.players = upsert(out.players, data.players, "id");
  if (data.draw || data.matches) {
    const draw = { ...(out.draw || {}), ...(data.draw || {}) };
    if (data.matches) draw.matches = upsert(draw.matches, data.matches, "key");
    out.draw = draw;
  }
  out.version = version;
  return out;
}

/**
 * Follow one tournament on `watch` (a live.js Watch). `onProjection(proj, msg)` gets the whole
 * projection after the snapshot and after every update; `onError(code, msg)` the hub's refusals
 * of the channel other than too_many_snapshots (e.g. `unknown_channel`).
 */
export function followTournament(watch, tid, onProjection, { onError = null } = {}) {
  const channel = `tournament:${tid}`;
  let proj = null;
  let retry = null;
  let stopped = false;

  function again(delay) {
    proj = null;
    if (retry || stopped) return;
    retry = setTimeout(() => { retry = null; if (!stopped) watch.resubscribe(channel); }, delay);
  }

  watch.subscribe(channel, (data, msg) => {
    if (msg.type === "snapshot" || typeof msg.base !== "number") {
      proj = data; // a snapshot (or a hub that sends whole projections)
    } else if (proj && msg.base === proj.version) {
      proj = applyDelta(proj, data, msg.version);
    } else {
      if (proj) again(0); // a gap: what is held is behind; a fresh snapshot is on its way
      return;
    }
    onProjection(proj, msg);
  }, {
    onError: (code, msg) => {
      if (code === "too_many_snapshots") { again(RETRY_MS); return; }
      if (onError) onError(code, msg);
    },
  });

  return {
    projection: () => proj,
    stop() { stopped = true; if (retry) clearTimeout(retry); watch.unsubscribe(channel); },
  };
}
