"""The stock market of 1847 AE: a grid of prices and the four moves.

Rows count from the top, columns from the left; a cell with no price is
no space.  Right at a row's end moves up instead; left at a row's start
moves down instead; up and down stay put where there is no space.
"""

from __future__ import annotations

from adjudicator.games.pfalz1847.data import GameData

Cell = tuple[int, int]


def exists(data: GameData, cell: Cell) -> bool:
    """True when ``cell`` is a space of the market."""
    r, c = cell
    return 0 <= r < len(data.market) and 0 <= c < len(data.market[r]) and data.market[r][c] != ""


def up(data: GameData, cell: Cell) -> Cell:
    """One row up (the same cell where there is none)."""
    target = (cell[0] - 1, cell[1])
    return target if exists(data, target) else cell


def down(data: GameData, cell: Cell) -> Cell:
    """One row down (the same cell where there is none)."""
    target = (cell[0] + 1, cell[1])
    return target if exists(data, target) else cell


def right(data: GameData, cell: Cell) -> Cell:
    """One space right; at the end of a row one row up."""
    target = (cell[0], cell[1] + 1)
    return target if exists(data, target) else up(data, cell)


def left(data: GameData, cell: Cell) -> Cell:
    """One space left; at the start of a row one row down."""
    target = (cell[0], cell[1] - 1)
    return target if exists(data, target) else down(data, cell)
