"""Rules lookup: importers turn rulebooks into sections, search finds them (issue 4).

Pure python (no discord): the cog and the console both go through ``service.RulesService``.
"""
