"""The readable pure-Python engine: the rules as the oracle that every fast path is checked against."""
