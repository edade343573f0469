"""cuehub: the real-time scoring hub for billiards competitions."""

__version__ = "0.1.0"
