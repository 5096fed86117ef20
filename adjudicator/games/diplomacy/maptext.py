"""Plain-text descriptions of map data, for GMs checking a map by eye."""

from __future__ import annotations

from adjudicator.games.diplomacy.core.mapdata import GameMap, Province


def describe_province(game_map: GameMap, province: Province) -> str:
    """Several lines describing ``province``: names, terrain, supply centre,
    coasts, rivers it lies on, and its neighbours for armies and fleets."""
    names = province.name if province.name_de in (None, province.name) else f"{province.name} / {province.name_de}"
    lines = [f"{province.key}  {names}"]
    kind = {"land": "inland", "coast": "coastal", "sea": "sea"}[province.terrain]
    centre = ""
    if province.centre:
        centre = f", supply centre (home of {province.home})" if province.home else ", supply centre (neutral)"
    lines.append(f"  terrain: {kind}{centre}")
    if province.aliases:
        lines.append(f"  also written: {', '.join(province.aliases)}")
    if province.seat is not None:
        lines.append(f"  seat: {province.seat[0]:.4f} N, {province.seat[1]:.4f} E")
    rivers = [f"{r.name} ({bank} bank)" if bank != "both" else f"{r.name} (flows through)"
              for r in game_map.rivers for key, bank in r.course if key == province.key]
    rivers += [f"{r.name} (mouth)" for r in game_map.rivers if r.mouth == province.key]
    if rivers:
        lines.append(f"  rivers: {', '.join(rivers)}")
    if province.terrain != "sea":
        lines.append(f"  army to: {', '.join(sorted(province.army)) or '-'}")
    for location, targets in province.fleet.items():
        label = "fleet to" if location == province.key else f"fleet on {location} to"
        lines.append(f"  {label}: {', '.join(sorted(targets)) or '-'}")
    if province.terrain == "land":
        lines.append("  fleet to: - (inland)")
    return "\n".join(lines)


def describe_map(game_map: GameMap) -> str:
    """A header with the map's figures followed by every province, sorted."""
    header = [
        f"{game_map.name}: {game_map.title}",
        f"  {len(game_map.provinces)} provinces, {len(game_map.supply_centres)} supply centres, "
        f"{game_map.victory_centres} to win, {len(game_map.powers)} powers, first year {game_map.start_year}",
    ]
    for power in game_map.powers.values():
        units = ", ".join(str(u) for u in power.start_units)
        confession = f", {power.confession}" if power.confession else ""
        header.append(f"  {power.name}{confession}: home {', '.join(power.home_centres)}; starts {units}")
    for river in game_map.rivers:
        end = f"into {river.mouth}" if river.mouth else f"joins the {river.joins}"
        header.append(f"  river {river.name}: {' > '.join(river.provinces)} ({end})")
    blocks = [describe_province(game_map, game_map.provinces[key]) for key in sorted(game_map.provinces)]
    return "\n".join(header) + "\n\n" + "\n\n".join(blocks)
