"""Live connections: the table socket (table.py) and the watch gateway."""
