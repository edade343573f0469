"""People across events (PROTOCOL.md section 12; docs/people.md is the reference).

One directory of the people who play; a tournament's players are entries that point at them; the
history, head-to-head and statistics of a person are read models kept from the stored events.

Pure (no I/O): `folding` (how names are compared and searched; `romanize`: toneless pinyin),
`tally` (statistics as one mergeable value), `stats` (a match's statistics from its events),
`attribution` (who played a stroke: the one seam scotch doubles will change), `facts` (the rows
kept of a finished match, and its racks for ratings), `paging` (opaque cursors).

With the store: `linking` (the link rule, run in the tournament event's transaction), `directory`
(people made, changed, deleted, merged, unmerged), `history` (the read models refreshed from the
streams), `keeper` (the listener and sweeps that run those refreshes off the command path),
`profile` and `record` (the reads), `rebuild` (`cuehub people rebuild`).
"""
