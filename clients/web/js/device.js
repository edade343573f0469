// The tablet's own id (live.js sends it with `auth`).

/** This browser's tablet id, kept in its storage: the desk lists each tablet of a table apart
 * (PROTOCOL.md section 16). Random, never derived from anything about the device. */
export function deviceId() {
  try {
    let id = localStorage.getItem("cuehub.device");
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem("cuehub.device", id);
    }
    return id;
  } catch (_) { return undefined; } // storage blocked: the hub names it by its token
}
