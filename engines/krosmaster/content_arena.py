"""Arenas as data (102.1): a board face with its scenery, kama and demon squares and starting
squares per side (103.2, 103.9), checked so a server's pack cannot place a tree on a start."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.core.errors import RuleError
from engines.core.square import Square, in_bounds, parse_square


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class Arena(_Model):
    """A board face: scenery, kama and demon squares, starting squares per side (102.1)."""

    id: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field(default="", max_length=60)  # issue 26.10: the Italian name; "" reads ``name``
    width: int = Field(default=12, ge=6, le=16)
    height: int = Field(default=12, ge=6, le=16)
    trees: list[str] = Field(default_factory=list)
    bushes: list[str] = Field(default_factory=list)
    crates: list[str] = Field(default_factory=list)
    kamas: dict[str, int] = Field(default_factory=dict)
    demon_squares: list[str] = Field(default_factory=list)
    starting: dict[Literal["north", "south", "east", "west"], list[str]]
    ice_cubes: list[str] = Field(default_factory=list)  # 313.6: Frigost ice cubes at set-up
    rink: list[str] = Field(default_factory=list)  # 313.6a/c: skating-rink squares ice cubes must stay on
    push_cube_ap: int = Field(default=1, ge=0, le=6)  # 313.6a: the seed prints no cost for Push-Cube

    @model_validator(mode="after")
    def _check(self) -> Arena:
        def sq(label: str, field: str) -> Square:
            try:
                square = parse_square(label, self.width, self.height)
            except RuleError as exc:
                raise ValueError(f"{field}: bad square {label!r}") from exc
            if not in_bounds(square, self.width, self.height):
                raise ValueError(f"{field}: {label!r} is off the board")
            return square

        obstacles: set[Square] = set()
        for field in ("trees", "bushes"):
            for label in getattr(self, field):
                square = sq(label, field)
                if square in obstacles:
                    raise ValueError(f"{field}: {label!r} already holds scenery")
                obstacles.add(square)
        for label in self.crates:
            if sq(label, "crates") in obstacles:
                raise ValueError(f"crates: {label!r} already holds scenery")
        for label, count in self.kamas.items():
            sq(label, "kamas")
            if not 1 <= count <= 5:
                raise ValueError(f"kamas: {label!r} must hold 1..5 kamas")
        for label in self.demon_squares:
            sq(label, "demon_squares")
        rink = {sq(label, "rink") for label in self.rink}
        for label in self.ice_cubes:
            if sq(label, "ice_cubes") in obstacles or sq(label, "ice_cubes") not in rink:
                raise ValueError(f"ice_cubes: {label!r} must be a rink square without a tree or bush")
        pairs = {("north", "south"), ("south", "north"), ("east", "west"), ("west", "east")}
        if not any((a, b) in pairs for a in self.starting for b in self.starting):
            raise ValueError("starting: needs two opposite sides")
        for side, labels in self.starting.items():
            if len(labels) < 8:
                raise ValueError(f"starting.{side}: needs at least 8 squares for 8 Krosmasters")
            for label in labels:
                if sq(label, f"starting.{side}") in obstacles:
                    raise ValueError(f"starting.{side}: {label!r} holds a tree or bush")
        return self
