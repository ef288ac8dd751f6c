"""WoW Miniatures' preview pictures, drawn in a render worker: each job gets the view as JSON (what a
worker can receive) and returns the PNG, so the bot's event loop only awaits them
(``gm.games.wowminis.presenter`` sends them to ``render_pool``)."""

from __future__ import annotations

from engines.wowminis.state import State


def los_job(view_json: str, a: str, b: str, lang: str, seat: int | None, seat_names: list[str]) -> tuple[bytes, bool]:
    """The picture and the verdict, in a render worker (sight is that of the character on ``a``)."""
    from engines.wowminis.rules_board import char_at, los_report
    from renderers.wowminis import render_los

    view = State.model_validate_json(view_json)
    looker = char_at(view, a)
    clear = los_report(view, looker.controller if looker is not None else (seat or 0), a, b).clear
    return render_los(view, a, b, lang, viewer_seat=seat, seat_names=dict(enumerate(seat_names))), clear


def ability_job(view_json: str, key: str, cid: str, lang: str, seat: int | None, seat_names: list[str],
                placement: tuple[str, int] | None = None) -> bytes:
    """The ability preview, in a render worker (``placement``: an area's space and orientation)."""
    from renderers.wowminis import render_ability

    view = State.model_validate_json(view_json)
    return render_ability(view, key, cid, lang, viewer_seat=seat, seat_names=dict(enumerate(seat_names)),
                          placement=tuple(placement) if placement else None)  # type: ignore[arg-type]


def move_job(view_json: str, cid: str, lang: str, seat: int | None, seat_names: list[str]) -> bytes:
    """The move preview, in a render worker."""
    from renderers.wowminis import render_move

    view = State.model_validate_json(view_json)
    return render_move(view, cid, lang, viewer_seat=seat, seat_names=dict(enumerate(seat_names)))
