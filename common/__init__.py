"""The bottom layer: data and helpers every other layer may import (translation, the rules
corpus model, and words for engine content that both gm and renderers show). It imports nothing
from the project except engines' content schemas (pure pydantic data, which import nothing back),
so every import still points down."""
