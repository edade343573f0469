"""cuehub_client: a small typed async client for the cuehub scoring hub.

- :class:`AdminClient`: REST setup calls and reads (PROTOCOL.md section 1);
- :class:`TableSession`: a table tablet over ``/ws/tables/{table_id}``: auth, commands with
  automatic ids, ack/reject, resend of unanswered commands after a reconnect;
- :class:`Watcher`: ``/ws/watch`` subscriptions with snapshots, updates and ``since`` resume.
"""

from .admin import AdminClient
from .errors import AuthError, CommandRejected, HubError, SessionClosed
from .session import TableSession
from .watcher import Watcher, WatchMessage

__all__ = [
    "AdminClient",
    "AuthError",
    "CommandRejected",
    "HubError",
    "SessionClosed",
    "TableSession",
    "WatchMessage",
    "Watcher",
]

__version__ = "0.1.0"
