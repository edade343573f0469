// Pairing codes the desk made in this page (tables view and cards share them). They live only in
// memory: a code is a one-time secret valid 10 minutes, nothing to keep.
import { hub } from "./desk-api.js";

const codes = new Map(); // table id -> {code, expires_at, link, qr}

export async function makeCode(tableId) {
  const c = await hub.pairingCode(tableId);
  codes.set(tableId, c);
  return c;
}

/** The table's code while it is valid, else null. */
export function liveCode(tableId) {
  const c = codes.get(tableId);
  return c && c.expires_at > Date.now() ? c : null;
}

/** The table's latest code, valid or not (an expired one is shown as expired). */
export function lastCode(tableId) {
  return codes.get(tableId) || null;
}

/** Rotating a table's token ends its codes too. */
export function forgetCodes(tableId) {
  codes.delete(tableId);
}
