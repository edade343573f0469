"""The guards both sides of the hub stand behind: the REST routes (hub/api) and the sockets (the
table socket, the watch side in hub/watch). Here so that neither side imports the other.

- `access`: the browser origin policy, the NUL guard, the registry of open table sockets;
- `peer`: who the client is (trusted proxies, the address a backoff counts on);
- `rate`: the command budget per table, the table tokens seen lately;
- `throttle`: the sign-in, pairing and sign-up backoff;
- `edge_json`: strict JSON parsing of what clients send, the error body of every refusal.
"""
