// Fan-out load client: N watcher sockets, driven by JSON lines on stdin, answers on stdout.
//   {"cmd":"connect","urls":[...],"n":N,"channel":C}  -> {"ok":"ready"} once every socket has its snapshot
//   {"cmd":"stall","url":U,"channel":C}                 -> one more socket that subscribes, then never reads
//   {"cmd":"reset"}                                     -> forget the counts
//   {"cmd":"report"}                                    -> counts, latency percentiles (ms), first/last receive
// Latency of a message = receive wall time (ms, sub-ms) - its server_time (ms, set when the server built it).
const WebSocket = require('ws');
const readline = require('readline');

let socks = [];
let stalled = [];
let lat = [];
let count = 0;
let perSock = [];
let first = 0, last = 0;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6 + epochOffset;
const epochOffset = Date.now() - Number(process.hrtime.bigint()) / 1e6;

function out(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

function open(url, channel, i, onReady, read = true) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  let ready = false;
  ws.on('open', () => {
    ws.send(JSON.stringify({ type: 'subscribe', channel }));
    if (!read) { ws._socket.pause(); onReady(); }
  });
  ws.on('message', (data) => {
    const t = nowMs();
    const s = data.toString();
    // Only the head is needed: type and server_time come first in both servers' messages.
    const head = s.slice(0, 200);
    if (!ready) { ready = true; onReady(); return; }
    const m = /"server_time":(\d+)/.exec(head);
    if (!m) return;
    count++; perSock[i]++;
    if (!first) first = t;
    last = t;
    lat.push(t - Number(m[1]));
  });
  ws.on('error', (e) => out({ error: String(e) }));
  return ws;
}

function pct(sorted, p) { return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null; }

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.cmd === 'connect') {
    let pending = msg.n;
    const batch = 50;
    let i = 0;
    const next = () => {
      for (let k = 0; k < batch && i < msg.n; k++, i++) {
        perSock.push(0);
        socks.push(open(msg.urls[i % msg.urls.length], msg.channel, perSock.length - 1, () => {
          if (--pending === 0) out({ ok: 'ready', n: socks.length });
        }));
      }
      if (i < msg.n) setTimeout(next, 20);
    };
    next();
  } else if (msg.cmd === 'stall') {
    stalled.push(open(msg.url, msg.channel, -1, () => out({ ok: 'stalled' }), false));
  } else if (msg.cmd === 'reset') {
    lat = []; count = 0; perSock = perSock.map(() => 0); first = 0; last = 0;
    out({ ok: 'reset' });
  } else if (msg.cmd === 'report') {
    const s = Float64Array.from(lat).sort();
    out({ count, p50: pct(s, 0.5), p99: pct(s, 0.99), max: s.length ? s[s.length - 1] : null,
          min_per_sock: Math.min(...perSock), max_per_sock: Math.max(...perSock), first, last });
  } else if (msg.cmd === 'close') {
    for (const w of socks.concat(stalled)) w.terminate();
    out({ ok: 'closed' });
    process.exit(0);
  }
});
