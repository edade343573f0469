"""Commands beside the server: `cuehub demo`, `cuehub simulate` (with its plausible strokes) and
`cuehub replay`."""
