// The fan-out benchmark's Node row: a bare `ws` server that broadcasts, as the Python floor does.
//   node node_floor.js PORT SPEC.json
// Watchers connect on /, send their subscribe, get a snapshot and are then broadcast to; a socket
// on /control triggers one broadcast per message it sends: an update message with the same bytes as
// the hub's and the floor's (SPEC holds the channel and the projection and event JSON text, spliced
// as hub.watch.watcher.message() does; server_time set when the message is built), built once and
// sent to every open watcher with `send`, as ws's README broadcasts.
const fs = require('fs');
const { WebSocketServer, WebSocket } = require('ws');

const [port, specFile] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
const channel = JSON.stringify(spec.channel);
let version = 0;
const watchers = new Set();

function message(kind, withEvent) {
  const head = `{"type":"${kind}","channel":${channel},"version":${version},"server_time":${Date.now()},"data":${spec.data}`;
  return withEvent ? `${head},"event":${spec.event}}` : `${head}}`;
}

// backlog as uvicorn's and the floor's (a burst of connects for the 5,000-watcher phase).
const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(port), perMessageDeflate: false, backlog: 2048 });
wss.on('connection', (ws, req) => {
  if (req.url === '/control') {
    ws.on('message', () => {
      version += 1;
      const text = message('update', true);
      for (const w of watchers) {
        if (w.readyState === WebSocket.OPEN) w.send(text);
      }
    });
    return;
  }
  ws.once('message', () => { // the subscribe
    ws.send(message('snapshot', false));
    watchers.add(ws);
  });
  ws.on('close', () => watchers.delete(ws));
  ws.on('error', () => watchers.delete(ws));
});
