"""Shared, pure building blocks for every rules engine (no I/O, no Discord, no Pillow)."""
