"""Dice: d20 notation with limits and the /dice service."""
