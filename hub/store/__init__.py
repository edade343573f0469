"""The store: the events are the truth; tournaments, tables and matches describe them.

Modules: schema (tables), db (engine, pragmas, migrations), events (append/read streams),
catalog (tournaments, tables, matches, admin token).
"""
