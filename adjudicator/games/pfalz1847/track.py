"""Track and stations of 1847 AE: which tiles a company may lay where
(colours, states, terrain costs, connection, upgrades) and where it may
place a station."""

from __future__ import annotations

from adjudicator.games.pfalz1847.board import Board, neighbour, points_into, rotate
from adjudicator.games.pfalz1847.data import GameData, Shape
from adjudicator.games.pfalz1847.orders import Lay, Station
from adjudicator.games.pfalz1847.position import Refusal, board, phase, _pay, JSON, STEPS
from adjudicator.games.pfalz1847 import operate


def _lays_allowed(data: GameData, g: JSON, cid: str) -> tuple[int, bool]:
    """How many tiles the company may lay this turn and whether one may be an upgrade."""
    if "two_yellow" in phase(data, g).flags:
        return 2, False
    if not g["operated"][cid]:
        return 2, True
    return 1, True


def lay_problem(data: GameData, g: JSON, cid: str, order: Lay,
                reached: tuple[Board, set[tuple[str, int]]] | None = None) -> Refusal | None:
    """Why ``cid`` may not lay ``order`` now (None: it may); ``reached``
    (the board and the sides the company's track points into) saves
    recomputing them for many lays."""
    r = g["round"]
    at, tile = order.hex, order.tile
    if at not in data.hexes:
        return Refusal("p47_no_hex", hex=at)
    printed = data.hexes[at]
    if printed.colour in ("gray", "red"):
        return Refusal("p47_fixed_hex", hex=at)
    if at == "E9" and "e9" not in phase(data, g).flags:
        return Refusal("p47_e9")
    if tile not in data.shapes or data.tile_counts.get(tile, 0) == 0:
        return Refusal("p47_no_tile", tile=tile)
    used = sum(1 for v in g["tiles"].values() if v[0] == tile)
    if used >= data.tile_counts[tile]:
        return Refusal("p47_tile_gone", tile=tile)
    new = data.shapes[tile]
    if new.colour not in phase(data, g).colours:
        return Refusal("p47_colour", tile=tile, colour=new.colour, phase=g["phase"])
    b, sides = reached if reached is not None else _sides(data, g, cid)
    old = b.shape(at)
    upgrade = at in g["tiles"] or printed.colour == "yellow"
    free = order.private in ("K", "H")
    if free:
        pstate = g["privates"].get(order.private)
        if pstate is None or pstate["owner"] != cid or pstate["closed"]:
            return Refusal("p47_not_yours", private=order.private)
        if printed.terrain != "mountain" or upgrade or new.colour != "yellow":
            return Refusal("p47_quarry_lay", hex=at)
    else:
        if r["step"] != "track":
            return Refusal("p47_step_over", step=r["step"])
        count, upgrades = _lays_allowed(data, g, cid)
        done = r["lays"]
        if len(done) >= count:
            return Refusal("p47_no_more_lays", count=count)
        if at in [d["hex"] for d in done]:
            return Refusal("p47_same_hex", hex=at)
        if upgrade and (not upgrades or any(d["upgrade"] for d in done)):
            return Refusal("p47_no_upgrade_now")
    if "two_yellow" in phase(data, g).flags and data.company(cid).state not in printed.states:
        return Refusal("p47_state", hex=at, company=cid, state=data.company(cid).state)
    want = {"white": "yellow", "yellow": "green", "green": "brown"}.get(old.colour)
    if new.colour != want:
        return Refusal("p47_wrong_colour", tile=tile, hex=at, want=want or "-")
    if new.label != printed.shape.label:
        return Refusal("p47_label", tile=tile, hex=at, label=printed.shape.label or "-")
    turned = rotate(new, order.rotation)
    if old.upgrades_to:
        if tile not in old.upgrades_to:
            return Refusal("p47_no_upgrade_path", tile=tile, hex=at)
        if not _exits(old) <= _exits(turned):
            return Refusal("p47_keep_track", tile=tile, hex=at)
    else:
        if sorted(n.kind for n in new.nodes) != sorted(n.kind for n in old.nodes):
            return Refusal("p47_stops_differ", tile=tile, hex=at)
        if not _path_set(old) <= _path_set(turned):
            return Refusal("p47_keep_track", tile=tile, hex=at)
    if at in g["tiles"] and not data.upgrade_allowed(g["tiles"][at][0], tile):
        return Refusal("p47_no_upgrade_path", tile=tile, hex=at)
    for side in _exits(turned) - _exits(old):
        if neighbour(data, at, side) is None:
            return Refusal("p47_off_map", hex=at, side=side)
    if not _connected(g, sides, cid, at, turned):
        return Refusal("p47_not_connected", hex=at, company=cid)
    cost = 0 if free or (at in g["tiles"]) else printed.cost
    if g["cash"][cid] < cost:
        return Refusal("p47_no_money", need=cost, have=g["cash"][cid])
    return None


def _exits(shape: Shape) -> set[int]:
    return {int(e) for path in shape.paths for e in path if not e.startswith("_")}


def _path_set(shape: Shape) -> set[frozenset[str]]:
    return {frozenset(p) for p in shape.paths}


def _sides(data: GameData, g: JSON, cid: str) -> tuple[Board, set[tuple[str, int]]]:
    b = board(data, g)
    return b, b.reach(cid)[1]


def _connected(g: JSON, sides: set[tuple[str, int]], cid: str, at: str, turned: Shape) -> bool:
    if cid in g["stations"].get(at, []):
        return True
    for a, c in turned.paths:
        for end in (a, c):
            if not end.startswith("_") and points_into(sides, at, int(end)):
                return True
    return False


def _lay(data: GameData, g: JSON, cid: str, order: Lay) -> None:
    problem = lay_problem(data, g, cid, order)
    if problem is not None:
        raise problem
    r = g["round"]
    printed = data.hexes[order.hex]
    free = order.private in ("K", "H")
    cost = 0 if free or order.hex in g["tiles"] else printed.cost
    upgrade = order.hex in g["tiles"] or printed.colour == "yellow"
    _pay(g, cid, "bank", cost)
    g["tiles"][order.hex] = [order.tile, order.rotation]
    if free:
        g["privates"][order.private]["closed"] = True
    else:
        r["lays"].append({"hex": order.hex, "upgrade": upgrade})
    if order.hex == "E9":
        g["e9"] = True
    g["log"].append({"event": "lay", "company": cid, "tile": order.tile, "hex": order.hex, "rotation": order.rotation,
                     "cost": cost})
    count, _ = _lays_allowed(data, g, cid)
    if len(r["lays"]) >= count and not free:
        operate._set_step(data, g, cid, "station")


def station_problem(data: GameData, g: JSON, cid: str, order: Station) -> Refusal | None:
    """Why ``cid`` may not place a station as ordered (None: it may)."""
    r = g["round"]
    if STEPS.index(r["step"]) > STEPS.index("station") or r["station"]:
        return Refusal("p47_step_over", step=r["step"])
    company = data.company(cid)
    used = g["stations_used"][cid]
    if used >= len(company.stations):
        return Refusal("p47_no_stations", company=cid)
    at = order.hex
    if at not in data.hexes:
        return Refusal("p47_no_hex", hex=at)
    b = board(data, g)
    index = b.city_node(at)
    if index is None or not b.shape(at).paths:
        return Refusal("p47_no_city", hex=at)
    tokens = g["stations"].get(at, [])
    if cid in tokens:
        return Refusal("p47_has_station", hex=at, company=cid)
    if len(tokens) >= b.node((at, index)).slots:
        return Refusal("p47_city_full", hex=at)
    nodes, _ = b.reach(cid)
    if (at, index) not in nodes:
        return Refusal("p47_not_connected", hex=at, company=cid)
    cost = company.stations[used]
    if order.private:
        pstate = g["privates"].get(order.private)
        if order.private != "W" or pstate is None or pstate["owner"] != cid or pstate["closed"]:
            return Refusal("p47_not_yours", private=order.private)
        cost //= 2
    if g["cash"][cid] < cost:
        return Refusal("p47_no_money", need=cost, have=g["cash"][cid])
    return None


def _station(data: GameData, g: JSON, cid: str, order: Station) -> None:
    problem = station_problem(data, g, cid, order)
    if problem is not None:
        raise problem
    company = data.company(cid)
    cost = company.stations[g["stations_used"][cid]]
    if order.private:
        cost //= 2
        g["privates"]["W"]["closed"] = True
    _pay(g, cid, "bank", cost)
    g["stations"].setdefault(order.hex, []).append(cid)
    g["stations_used"][cid] += 1
    g["round"]["station"] = True
    g["log"].append({"event": "station", "company": cid, "hex": order.hex, "cost": cost})
    operate._set_step(data, g, cid, "run")


def lay_options(data: GameData, g: JSON, cid: str, limit: int = 400) -> list[Lay]:
    """Tile lays ``cid`` may make now (at most ``limit``)."""
    found: list[Lay] = []
    b, sides = _sides(data, g, cid)
    quarries = [""] + [q for q in ("K", "H") if g["privates"][q]["owner"] == cid and not g["privates"][q]["closed"]]
    for at, printed in sorted(data.hexes.items()):
        if printed.colour in ("gray", "red"):
            continue
        touched = cid in g["stations"].get(at, []) or any(points_into(sides, at, s) for s in range(6))
        if not touched:
            continue
        for tile in data.tile_counts:
            for rotation in range(6):
                for private in quarries:
                    order = Lay(tile, at, rotation, private)
                    if lay_problem(data, g, cid, order, (b, sides)) is None:
                        found.append(order)
                        if len(found) >= limit:
                            return found
    return found
