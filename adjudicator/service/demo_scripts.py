"""The scripted games of ``adjudicator demo``, as data: who mails which
orders in which phase (the playing is in ``adjudicator.service.demo``).
Kept apart so that the command line can list the scripts without
importing the judge."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Script:
    """A scripted game: its variant, the phase it ends at, and for each
    phase the mails (power, order lines) sent when the game reaches it."""

    variant: str
    game: str
    last_phase: str
    phases: dict[str, list[tuple[str, list[str]]]]
    options: dict[str, str] = field(default_factory=dict)
    ready: bool = True
    """Whether each mail ends with READY (not in a turn-based game, where
    a READY on a sign-on would pass the first player's turn)."""

    def finished(self, phases: list[str]) -> bool:
        """True when the game went as far as the script goes."""
        return bool(phases) and phases[-1] == self.last_phase


@dataclass(frozen=True)
class TurnScript:
    """A scripted turn-based game played by a fixed policy: its variant,
    options, and how far it is played (the first phase whose name starts
    with ``until``).  Whoever the module says must act mails the order the
    policy picks from the module's ``legal_orders`` (a play before a
    take before a pass; a tie-break card rather than none); ``first_lines``
    go into the first such mail before its order (to show how the judge
    answers wrong lines)."""

    variant: str
    game: str
    options: dict[str, str]
    until: str
    first_lines: tuple[str, ...] = ()

    def finished(self, phases: list[str]) -> bool:
        """True when the game went as far as the script goes."""
        return bool(phases) and phases[-1].startswith(self.until)


@dataclass(frozen=True)
class BotScript:
    """A game played to its end by bots: whenever players must act, each
    mails one order the rules offer him now, chosen at random from the
    seed ``bots`` and the phase (a card game, whose plays depend on the
    cards dealt)."""

    variant: str
    game: str
    options: dict[str, str]
    bots: int

    def finished(self, phases: list[str]) -> bool:
        """True when the game was played to its end."""
        return bool(phases) and phases[-1] == "finished"


# 30JK, 1618 to the first builds: a river double move, a transform, a
# religious-warfare disbandment, a supported attack on Trier with its
# retreat, builds and a removal by civil disorder.
THIRTY_YEARS = Script("30jk", "demo1618", "1620M", {
    "1618M": [
        ("Sachsen", ["F Tor - Wit - Anh", "A Lei - EbMa", "A Mei - Lei"]),
        ("Österreich", ["F Lin T A", "A Pra - Pil"]),
        ("Bayern", ["A FAns - RsNu", "A Muenchen - Tirol"]),
    ],
    "1619M": [
        ("Sachsen", ["A Lei - Erf"]),
        ("Bayern", ["A RsNu H"]),
        ("Frankreich", ["A Met - EbTr"]),
        ("Pfalz", ["A Mai S A Met - EbTr"]),
    ],
    "1619R": [("Rheinbistümer", ["A EbTr - FZwe"])],
    "1619A": [
        ("Bayern", ["Build A FAns"]),
        ("Sachsen", ["Build A Mei", "Baue F Tor"]),
        ("Frankreich", ["Build A Met"]),
    ],
})

# Standard Diplomacy, 1901: a dislodgement in Galicia and its retreat, builds.
STANDARD = Script("standard", "demo1901", "S1902M", {
    "S1901M": [
        ("Russia", ["A War - Gal", "F Sev - Bla", "A Mos - Ukr"]),
        ("Germany", ["F Kie - Den", "A Ber - Kie", "A Mun - Ruh"]),
        ("Austria", ["A Vie H", "A Bud H", "F Tri - Alb"]),
        ("France", ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"]),
        ("England", ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yrk", "A Yor - Lon"]),
    ],
    "F1901M": [
        ("Austria", ["A Vie - Gal", "A Bud S A Vie - Gal", "F Alb - Gre"]),
        ("Germany", ["F Den H", "A Kie - Hol", "A Ruh - Bel"]),
        ("Russia", ["A Gal H", "A Ukr - Rum", "F Bla - Ank"]),
        ("Italy", ["A Ven H", "A Rom - Apu", "F Nap - Ion"]),
    ],
    "F1901R": [("Russia", ["A Gal - War"])],
    "W1901A": [("Germany", ["Build F Kie", "Build A Ber"]), ("Austria", ["Build A Vie"])],
})

# 1847 AE with four players on the gathered data (the tile manifest of
# 18xx.games, no stand-in table): the rule summary's worked example, S1 and
# the L through the first two stock and operating rounds.
PFALZ = Script("1847ae-4", "demo1847", "SR3-0033", {
    "SR1-0001": [("S4", ["BUY SCR"])],
    "SR1-0002": [("S3", ["BUY VIW"])],
    "SR1-0003": [("S2", ["BUY MNR"])],
    "SR1-0004": [("S1", ["BUY PLP", "BUY W"])],
    "SR1-0006": [("S2", ["BUY K"])],
    "SR1-0007": [("S3", ["BUY LFKC"])],
    "SR1-0008": [("S4", ["BUY R"])],
    "SR1-0009": [("S1", ["PASS"])],
    "SR1-0010": [("S2", ["BUY SPR"])],
    "SR1-0011": [("S3", ["BUY H"])],
    "SR1-0012": [("S4", ["PASS"])],
    "SR1-0013": [("S1", ["PASS"])],
    "SR1-0014": [("S2", ["PASS"])],
    "SR1-0015": [("S3", ["PASS"])],
    "OR1.1-0016": [("S1", ["LAY 58 G17 ROT 1", "LAY 57 G19 ROT 2", "STATION G15", "BUY TRAIN 3", "PASS"])],
    "SR2-0021": [("S4", ["PASS"])],
    "SR2-0022": [("S1", ["BUY L IPO"])],
    "SR2-0023": [("S2", ["PASS"])],
    "SR2-0024": [("S3", ["PASS"])],
    "SR2-0025": [("S4", ["PASS"])],
    "SR2-0026": [("S1", ["PASS"])],
    "OR2.1-0027": [("S1", ["PASS", "PASS", "RUN 3: F18-G17-G15", "DIVIDEND", "BUY TRAIN 3", "PASS"])],
}, {}, ready=False)

# Liberté for four players with the stand-in data, through round 1: the
# start player drawn by lot, action turns (two refused lines first), the
# actions' end, the election with its sealed tie-breaks, government,
# opposition and points, round 2's order by victory points.
LIBERTE = TurnScript("liberte", "demoliberte", {"data": "standin"}, "R2-", ("SPIELE", "PLAY A99 PARIS"))

# Kreml with four players and the stand-in data (seed 1): notes, the event cards taken, reveals, cures,
# a deportation, votes,
# the parades, to the third parade; German order words.
KREML = Script("kreml4", "demokreml", "1954-end", {
    "1950-notes": [
        ("A", [
            'NOTIZ Sachar Samowarow 1', 'NOTIZ Juri Kaderow 2', 'NOTIZ Grigori Direktiwin 3',
            'NOTIZ Boris Buerokratow 4', 'NOTIZ Pjotr Plansoll 5', 'NOTIZ Michail Mandatow 6',
            'NOTIZ Ruslan Resolutow 7', 'NOTIZ Wladimir Wolgin 8', 'NOTIZ Sergei Sekretarin 9',
            'NOTIZ Viktor Wodkin 10',
        ]),
        ("B", [
            'NOTIZ Grigori Direktiwin 1', 'NOTIZ Anatoli Apparatow 2', 'NOTIZ Ustin Urkundin 3',
            'NOTIZ Leonid Lenkin 4', 'NOTIZ Boris Buerokratow 5', 'NOTIZ Viktor Wodkin 6',
            'NOTIZ Wassili Datschnik 7', 'NOTIZ Konstantin Kolchosny 8', 'NOTIZ Sachar Samowarow 9',
            'NOTIZ Arkadi Akteninow 10',
        ]),
        ("C", [
            'NOTIZ Jakow Jubilow 1', 'NOTIZ Boris Buerokratow 2', 'NOTIZ Sergei Sekretarin 3',
            'NOTIZ Juri Kaderow 4', 'NOTIZ Wassili Datschnik 5', 'NOTIZ Oleg Orthodow 6', 'NOTIZ Michail Mandatow 7',
            'NOTIZ Grigori Direktiwin 8', 'NOTIZ Ruslan Resolutow 9', 'NOTIZ Viktor Wodkin 10',
        ]),
        ("D", [
            'NOTIZ Wassili Datschnik 1', 'NOTIZ Fjodor Fuenfjahrow 2', 'NOTIZ Viktor Wodkin 3',
            'NOTIZ Ustin Urkundin 4', 'NOTIZ Grigori Direktiwin 5', 'NOTIZ Nikolai Normow 6',
            'NOTIZ Timofei Traktorow 7', 'NOTIZ Leonid Lenkin 8', 'NOTIZ Gennadi Genossow 9',
            'NOTIZ Ruslan Resolutow 10',
        ]),
    ],
    "1950-0-001": [("A", ['NEHMEN kurort'])],
    "1950-0-002": [("B", ['NEHMEN krise'])],
    "1950-0-003": [("C", ['NEHMEN tauwetter'])],
    "1950-0-004": [("D", ['NEHMEN kurort'])],
    "1951-0-005": [
        ("A", ['WEITER', 'OFFENLEGEN Juri Kaderow 1']),
        ("B", ['WEITER']),
        ("C", ['WEITER']),
        ("D", ['WEITER']),
    ],
    "1952-0-006": [("A", ['WEITER']), ("B", ['WEITER']), ("C", ['WEITER']), ("D", ['WEITER'])],
    "1952-5-007": [("A", ['STIMME DAGEGEN', 'OFFENLEGEN Michail Mandatow 1'])],
    "1952-6-008": [("A", ['KEINE'])],
    "1952-6-009": [("A", ['BEFOERDERN Konstantin Kolchosny'])],
    "1953-0-010": [
        ("A", ['WEITER']),
        ("B", ['WEITER', 'OFFENLEGEN Anatoli Apparatow 1']),
        ("C", ['WEITER']),
        ("D", ['WEITER']),
    ],
    "1953-1-011": [("B", ['KUR'])],
    "1953-1-012": [("A", ['KUR', 'OFFENLEGEN Viktor Wodkin 10'])],
    "1953-1-013": [("A", ['BLEIBEN'])],
    "1954-0-014": [
        ("A", ['WEITER']),
        ("B", ['WEITER']),
        ("C", ['WEITER']),
        ("D", ['WEITER', 'OFFENLEGEN Gennadi Genossow 9']),
    ],
    "1954-1-015": [("A", ['KUR'])],
    "1954-3-016": [("A", ['KEINE'])],
    "1954-3-017": [("A", ['DEPORTIEREN Arkadi Akteninow'])],
    "1954-6-018": [("D", ['TAUSCHEN Nikolai Normow MIT Wladimir Wolgin'])],
    "1954-6-019": [("D", ['TAUSCHEN Timofei Traktorow MIT Wladimir Wolgin'])],
    "1954-6-020": [("D", ['TAUSCHEN Nikolai Normow MIT Ruslan Resolutow', 'OFFENLEGEN Timofei Traktorow 7'])],
    "1954-6-021": [("D", ['KEINE'])],
    "1954-6-022": [("B", ['BEFOERDERN Grigori Direktiwin'])],
    "1954-7-023": [("D", ['KEINE'])],
    "1954-7-024": [("B", ['KEINE'])],
    "1954-7-025": [("A", ['KEINE'])],
    "1954-7-026": [("A", ['REHABILITIEREN Arkadi Akteninow'])],
}, {"data": "standin"}, ready=False)

# 1848 – Die Revolution with the stand-in card set, played to its end by two bots.
REVOLUTION = BotScript("1848", "demo1848", {"data": "standin"}, 3)

SCRIPTS: dict[str, Script | TurnScript | BotScript] = {
    script.variant: script for script in (THIRTY_YEARS, STANDARD, PFALZ, LIBERTE, KREML, REVOLUTION)}
