"""The watch side: /ws/watch's public live channels (PROTOCOL.md section 2), one name per thing.

- `core`: channels, history and per-watcher queues, shared by every front (no socket code);
- `watcher`: one watcher socket as the core sees it (its subscriptions, its bounded outbox);
- `subscriptions`: a watcher's subscribe / unsubscribe frames;
- `feeds`, `tournament_feeds`: what this process knows of each match, table and tournament;
- `history`: what a watcher missed, rebuilt from the store;
- `wire`: the bus payload between hub processes;
- fronts: `server` (the `websockets` server: in the hub, on HUB_WATCH_PORT, or the `cuehub gateway`
  process), `uvicorn_front` (/ws/watch on the hub's own port, handed to `server`; `handed`: those
  handed-over connections, which idle without a task of their own), and `asgi_front`
  (the FastAPI endpoint, for any other ASGI server).
"""
