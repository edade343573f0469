"""Sign-up and check-in (PROTOCOL.md section 14).

- `state`: the registration stream's events and their pure fold (settings, entries, statuses);
- `decide`: commands -> one event, or a `RegistrationReject` (pure: the time and whether the draw
  is made are given to it);
- `registrar`: the I/O side: one writer per tournament's stream, and the steps that make the
  tournament's players follow the entries (an accepted entry is a player of section 7);
- `check_in_clock`: closes each check-in window at its time, with or without a request arriving.
"""
