"""Ratings (PROTOCOL.md section 13; docs/ratings.md is the reference).

Pure (no I/O): `scale` (the per-rack odds scale: 100 points = 2:1 a rack), `fit` (ratings from
every rack between people: a Bradley-Terry fit with a prior toward 500), `race` (the exact chance
of a race, handicapped or not, from any score; the handicapped race closest to an even match),
`seeding` (a draw's field ordered by rating).

With the store: `store` (the racks read from people's history, the ratings table written and
read), `keeper` (refits off the event loop as results arrive), `rebuild` (`cuehub ratings
rebuild`).
"""
