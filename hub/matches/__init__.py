"""The match engine around the pure rules (`hub/rules/`): the writer every command goes through,
the clocks, who is at each table, and the list reads."""
