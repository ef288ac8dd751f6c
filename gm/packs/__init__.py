"""Servers' content packs, for every game: reading an upload safely (``safe_data``, ``reading``)
and managing what a server has saved (``admin``)."""
