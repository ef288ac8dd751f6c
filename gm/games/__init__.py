"""Each game at the table, one package per system: its presenter (the picture, the summary, the
buttons, the private panel), its autocomplete and typed names, its words. What they share lives
here: ranked choices (``choices``), name matching (``names``) and the seat's own view (``seat_view``).
A game's package imports no other game's (.importlinter).
"""
