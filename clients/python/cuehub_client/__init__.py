"""cuehub_client: a small typed async client for the cuehub scoring hub.

- :class:`AdminClient`: REST setup calls and reads (PROTOCOL.md section 1), people across events
  (section 12: ``search_people``, ``get_person``, ``person_matches``, ``versus``, merges);
- :class:`TableSession`: a table tablet over ``/ws/tables/{table_id}``: auth, commands with
  automatic ids, ack/reject, resend of unanswered commands after a reconnect;
- :class:`Watcher`: ``/ws/watch`` subscriptions with snapshots, updates and ``since`` resume.
"""

from .admin import AdminClient
from .errors import AuthError, CommandRejected, HubError, SessionClosed
from .session import TableSession
from .types import Intent, Person, Shot
from .watcher import Watcher, WatchMessage

__all__ = [
    "AdminClient",
    "AuthError",
    "CommandRejected",
    "HubError",
    "Intent",
    "Person",
    "SessionClosed",
    "Shot",
    "TableSession",
    "WatchMessage",
    "Watcher",
]

__version__ = "0.1.0"
