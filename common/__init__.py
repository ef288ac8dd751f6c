"""The bottom layer: data and helpers every other layer may import (translation, the rules
corpus model). It imports nothing from the project, so every import points down."""
