"""Running the hub as a service: metrics, logs and their budget, the heap, the port's guards,
conditional GETs, the hub's own files and the pages."""
