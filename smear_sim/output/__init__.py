"""How answers look: terminal tables, charts, files and the report."""
