// A players file read in the page, whatever saved it: UTF-8 (with or without a byte order mark),
// UTF-16 (Excel's "Unicode text", little or big endian, with a mark or not) and GBK/GB18030 (what
// Excel on Chinese Windows saves as CSV), through TextDecoder. A file that is none of them, or an
// Excel workbook itself, is said plainly instead of turning names into "��".

/** -> {text, encoding: "utf8" | "utf16le" | "utf16be" | "gb18030"} or {error: i18n key}. */
export async function readTextFile(file) {
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (_) {
    return { error: "dk_file_unreadable" };
  }
  return decodeText(bytes);
}

const decode = (label, bytes) => new TextDecoder(label, { fatal: true }).decode(bytes);

export function decodeText(bytes) {
  const b = bytes;
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return { error: "dk_file_workbook" };
  if (b.length >= 8 && b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0) return { error: "dk_file_workbook" };
  try {
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { text: decode("utf-8", b.subarray(3)), encoding: "utf8" };
    if (b[0] === 0xff && b[1] === 0xfe) return { text: decode("utf-16le", b.subarray(2)), encoding: "utf16le" };
    if (b[0] === 0xfe && b[1] === 0xff) return { text: decode("utf-16be", b.subarray(2)), encoding: "utf16be" };
  } catch (_) {
    return { error: "dk_file_unreadable" };
  }
  const wide = utf16Without(b);
  if (wide) {
    try { return { text: decode(wide, b), encoding: wide.replace("-", "") }; } catch (_) { /* try the others */ }
  }
  if (b.includes(0)) return { error: "dk_file_unreadable" }; // binary: no text file holds NUL bytes
  try { return { text: decode("utf-8", b), encoding: "utf8" }; } catch (_) { /* not UTF-8 */ }
  try { return { text: decode("gb18030", b), encoding: "gb18030" }; } catch (_) { /* not GBK either */ }
  return { error: "dk_file_unreadable" };
}

/** UTF-16 without a mark: ASCII text (separators, newlines, digits) leaves a zero byte in every
 * other place; which side says the byte order. */
function utf16Without(b) {
  const n = Math.min(b.length - (b.length % 2), 4096);
  if (n < 4) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (b[i] === 0) even += 1;
    if (b[i + 1] === 0) odd += 1;
  }
  const pairs = n / 2;
  if (odd > pairs * 0.3 && even < pairs * 0.05) return "utf-16le";
  if (even > pairs * 0.3 && odd < pairs * 0.05) return "utf-16be";
  return null;
}
