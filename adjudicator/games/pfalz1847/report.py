"""The report data of 1847 AE and the lines of "your turn" mails.

A report is plain data the templates render (``pfalz1847_report.*.j2``):
the orders carried out, every event in both languages, each player's
money and certificates, each company's treasury, trains and stations,
the bank and the train supply, the stock market with every marker, and
at the end the final scores.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.pfalz1847 import engine, routes
from adjudicator.games.pfalz1847.data import GameData
from adjudicator.games.pfalz1847.wording import event, say

JSON = dict[str, Any]
LANGUAGES = ("de", "en")


def _holdings(data: GameData, g: JSON, seat: str) -> str:
    parts = []
    for company in data.companies:
        held = engine.percent(g, seat, company.id)
        if held:
            mark = "*" if g["director"][company.id] == seat and company.id != "LFK" else ""
            parts.append(f"{company.id} {held}%{mark}")
    parts += [p for p, s in g["privates"].items() if s["owner"] == seat and not s["closed"]]
    return ", ".join(parts) or "-"


def tables(data: GameData, g: JSON) -> JSON:
    """The public position: players, companies, bank and market."""
    limit = data.cert_limit[len(g["players"])]
    players = [{"seat": p, "cash": g["cash"][p], "certs": engine.cert_count(data, g, p), "limit": limit,
                "holdings": _holdings(data, g, p), "worth": engine.score(data, g, p)} for p in g["players"]]
    companies = []
    for company in data.companies:
        cid = company.id
        if g["price"][cid] is None:
            continue
        stations = sorted(at for at, tokens in g["stations"].items() if cid in tokens)
        quarries = [p for p, s in g["privates"].items() if s["owner"] == cid and not s["closed"]]
        companies.append({"company": cid, "name": company.name, "price": engine.price(data, g, cid),
                          "cash": g["cash"][cid], "director": g["director"][cid] or "-",
                          "trains": " ".join(g["trains"][cid]) or "-", "stations": " ".join(stations) or "-",
                          "ipo": sum(g["ipo"][cid]) + (0 if engine._started(g, cid) else company.certificates[0]),
                          "market": sum(g["market"][cid]), "floated": g["floated"][cid],
                          "investor": g["investor"][cid], "privates": " ".join(quarries)})
    rows = []
    for r, row in enumerate(data.market):
        cells = []
        for c, code in enumerate(row):
            here = [cid for cid, cell in g["price"].items() if cell and cell[0] == r and cell[1] == c]
            cells.append({"price": code.rstrip("p") if code else "", "par": code.endswith("p"), "markers": here})
        rows.append(cells)
    depot = ", ".join(f"{name}×{count}" for name, count in g["depot"].items() if count)
    return {"players": players, "companies": companies, "market": rows, "bank": g["bank"], "depot": depot or "-",
            "pool": " ".join(g["pool"]) or "-", "phase": g["phase"], "round": engine.round_label(g),
            "to_act": engine.actor(data, g) or "-", "operating": engine.operating(g) or ""}


def _events(entries: list[JSON]) -> list[dict[str, str]]:
    lines = []
    for entry in entries:
        seat = str(entry.get("seat", ""))
        for ev in entry.get("events", ()):
            lines.append({lang: event(ev, seat, lang) for lang in LANGUAGES})
    return lines


def build_report(data: GameData, before: JSON, after: JSON, seat: str, done: list[str], start: int,
                 standin: bool) -> JSON:
    """The report of one turn: ``done`` are the orders carried out,
    ``start`` the first new entry of ``after``'s log."""
    fresh = after["log"][start:]
    runs = []
    for cid, entries in after["routes"].items():
        for e in entries:
            runs.append({"company": cid, "train": e["train"], "route": "-".join(s[0] for s in e["stops"]),
                         "revenue": e["revenue"]})
    report: JSON = {"seat": seat, "orders": done, "events": _events(fresh), "standin": standin,
                    "tables": tables(data, after), "routes": runs, "over": after["over"],
                    "scores": after["result"].get("scores", {}), "why_over": after["result"].get("why", "")}
    return report


def actions_now(data: GameData, g: JSON, seat: str, language: str, short: bool = False) -> list[str]:
    """The orders open to ``seat`` now, grouped, with the best routes of
    an operating company (``short``: without the header and the hint)."""
    orders = engine.legal_orders(data, g, limit_lays=200)
    lays = [str(o) for o in orders if str(o).startswith("LAY")]
    others = [str(o) for o in orders if not str(o).startswith("LAY")]
    shown = others + lays[:12]
    lines = [] if short else [say("p47_your_turn", language, who=_who(g, seat))]
    ask = (g.get("asks") or [None])[0]
    if ask is not None and not short:
        lines.append(say(f"p47_ask_{ask['kind']}", language, **ask))
    lines += shown
    if len(lays) > 12:
        lines.append(say("p47_act_more_lays", language, count=len(lays) - 12))
    cid = engine.operating(g)
    if cid and not short and ask is None and g["trains"][cid] and g["round"]["step"] in ("track", "station", "run"):
        trains = engine.company_trains(data, g, cid)
        total, picks = routes.best(engine.board(data, g), cid, trains, engine.colour_index(data, g))
        text = ", ".join(f"RUN {t.name}: {p.text()}" for t, p in zip(trains, picks) if p is not None) or "-"
        lines.append(say("p47_best_hint", language, routes=text, revenue=total))
    return lines


def _who(g: JSON, seat: str) -> str:
    asks = g.get("asks")
    cid = asks[0]["company"] if asks else engine.operating(g)
    return f"{seat}, {cid}" if cid else seat


def report_lines(report: JSON, language: str) -> list[str]:
    """One resolved turn in a few lines: the seat's orders, what happened,
    the routes run and, at the end, the final scores."""
    lines = [f"{report['seat']}: {'; '.join(report['orders']) or '-'}"]
    lines += [e[language] for e in report["events"]]
    if report.get("over"):
        lines.append(say("p47_scores", language) + ": " +
                     ", ".join(f"{seat} {value}M" for seat, value in report["scores"].items()))
    return lines


def status_lines(data: GameData, g: JSON, standin: bool, language: str) -> list[str]:
    """The public position in lines: round, bank and trains, players,
    companies, share prices."""
    t = tables(data, g)
    lines = [say("p47_standin", language)] if standin else []
    who = t["to_act"] + (f" {t['operating']}" if t["operating"] else "")
    lines.append(say("p47_round", language, round=t["round"], phase=t["phase"], who=who))
    lines.append(say("p47_bank_line", language, bank=t["bank"], depot=t["depot"], pool=t["pool"]))
    for p in t["players"]:
        lines.append(say("p47_player_line", language, seat=p["seat"], cash=p["cash"], certs=p["certs"],
                         limit=p["limit"], holdings=p["holdings"]))
    for c in t["companies"]:
        floated = "" if c["floated"] else say("p47_not_floated_mark", language)
        lines.append(say("p47_company_line", language, company=c["company"], price=c["price"], cash=c["cash"],
                         director=c["director"], trains=c["trains"], stations=c["stations"], ipo=c["ipo"],
                         market=c["market"], floated=floated))
    for cid, entries in sorted(g["routes"].items()):
        for e in entries:
            lines.append(say("p47_ev_run", language, company=cid, train=e["train"],
                             route="-".join(s[0] for s in e["stops"]), revenue=e["revenue"]))
    return lines
