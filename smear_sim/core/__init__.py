"""The ground floor: cards, rules, trump tables, kernel layouts, players' names, estimates, errors, files.

Every other part reads these and nothing here imports from the rest of the package.
"""
