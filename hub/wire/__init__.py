"""The wire catalogue: every message the hub's sockets carry, defined once.

- `table`: the table socket (`/ws/table`, PROTOCOL.md sections 2 and 9): what a tablet sends
  (`auth`, `ping`, command envelopes) and what it is sent (`ready`, `state`, `ack`, `reject`,
  `pong`, `match_left`).
- `watch`: the watch socket (`/ws/watch`, sections 3 and 10): what a screen sends (`subscribe`,
  `unsubscribe`, `ping`) and what it is sent (`snapshot`, `update`, `error`, `pong`).
- `bus`: the payload between hub processes (not a client's concern).

Each message is a TypedDict (its shape, for mypy and for the clients' tests) and one builder; the
hub builds every frame through these builders, and where a frame is spliced from JSON already made
(the fan-out's fast path) that splice lives in the builder too. The Python client and the tests
build their frames with the same builders (tests/frames.py), so a renamed field fails them.
"""
