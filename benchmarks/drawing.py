"""Map pictures: size of the SVG and PNG and time to render them, for the
standard map and 30JK, the start position and a phase full of orders.

    python benchmarks/drawing.py [--repeat 10]

Prints one line per map and position: the picture's size in pixels, the
SVG and PNG bytes, and the median time of building the scene, writing the
SVG and writing the PNG; first the one-off time of laying out each map
(Voronoi regions, coasts, rivers), which a process pays once per map.
Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

try:
    import adjudicator  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.games.diplomacy.drawing import draw, to_png, to_svg
from adjudicator.games.diplomacy.drawing.layout import map_layout
from adjudicator.games.diplomacy import DiplomacyGame

OPENING = {
    "Austria": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
    "England": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
    "France": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"],
    "Germany": ["A Mun - Bur", "F Kie - Den", "A Ber - Kie"],
    "Italy": ["A Ven - Tyr", "F Nap - Ion", "A Rom - Apu"],
    "Russia": ["A War - Gal", "F Sev - Bla", "A Mos - Ukr", "F Stp/sc - Bot"],
    "Turkey": ["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
}
THIRTY = {
    "Sachsen": ["F Tor - Wit - Anh", "A Lei - EbMa", "A Mei - Lei"],
    "Österreich": ["F Lin T A", "A Pra - Pil"],
    "Bayern": ["A FAns - RsNu", "A Aug S A FAns - RsNu"],
    "Frankreich": ["A Met - HLot", "A Vun - HLot"],
    "Braunschweig-Lüneburg": ["Konfession katholisch"],
}


def median_ms(action: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="timed runs per figure (default 10)")
    args = parser.parse_args()
    for variant in ("standard", "30jk"):
        module = DiplomacyGame.for_variant(variant)
        start = time.perf_counter()
        map_layout(module.game_map)
        print(f"{variant}: layout {1000 * (time.perf_counter() - start):.0f} ms (once per map)")
    print(f"{'map':9} {'position':9} {'pixels':>10} {'SVG bytes':>10} {'PNG bytes':>10} "
          f"{'scene ms':>9} {'SVG ms':>7} {'PNG ms':>7}")
    for variant, orders in (("standard", OPENING), ("30jk", THIRTY)):
        module = DiplomacyGame.for_variant(variant)
        state = module.start({}, 1)
        report = module.resolve(state, orders).report
        for label, phase_report in (("start", None), ("orders", report)):
            name = lambda p: module.power_name(p, "en")  # noqa: E731
            scene = draw(state, phase_report, power_name=name)
            svg, png = to_svg(scene), to_png(scene)
            scene_ms = median_ms(lambda: draw(state, phase_report, power_name=name), args.repeat)
            svg_ms = median_ms(lambda: to_svg(scene), args.repeat)
            png_ms = median_ms(lambda: to_png(scene), args.repeat)
            print(f"{variant:9} {label:9} {scene.width:>4}x{scene.height:<5} {len(svg.encode()):>10} {len(png):>10} "
                  f"{scene_ms:>9.1f} {svg_ms:>7.1f} {png_ms:>7.1f}")


if __name__ == "__main__":
    main()
