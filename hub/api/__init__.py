"""REST routers: setup (tournaments, tables, matches, reads), commands, health."""
