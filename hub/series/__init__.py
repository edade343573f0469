"""Series: a ranking over several tournaments (PROTOCOL.md section 13).

``points`` (pure) gives each place its band's points and checks a series body; ``standings``
(pure) ranks people from their places; ``store`` keeps the series, their tournaments and the
standings (a read model) in the database; ``keeper`` refreshes a series' standings when one of its
tournaments changes, off the command path.
"""
