"""The readable pure-Python engine: the rules as the reference that every fast path is checked against."""
