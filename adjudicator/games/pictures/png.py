"""Writing a ``Scene`` as a PNG image with Pillow, for mail readers that
do not show SVG.

The board under everything else (the leading polygons and lines: a map's
regions and borders) is painted at its own size, crisp, and the rest
(units, orders, text) at twice its size and scaled down (smooth edges);
then the picture is reduced to a small palette without dithering: every
colour the scene names, exactly (a power's colour never drifts to its
neighbour's), and ``BLENDS`` more for the smoothed edges, the median cut
of every fourth pixel in each direction (the full picture would cost six
times more for a palette that looks the same).  Both keep a map picture
small for mail: smoothed borders and a full 256-colour palette cost about
a quarter more bytes than they add to what a reader can see.  Each text is set once
per process as a mask and then only pasted (labels repeat in every
picture of a map).  Text is set in DejaVu Sans
(Debian's ``fonts-dejavu-core``, which the README's install commands
bring); where that font is missing, Pillow's built-in font is used and
text is spelt in ASCII (``Österreich`` -> ``Oesterreich``), as that font
has no other letters.  The same scene, Pillow version and font give the
same bytes: no time stamp or other metadata is written.
"""

from __future__ import annotations

import io
import math
import unicodedata
import zlib
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from adjudicator.games.pictures.geometry import Point, distance
from adjudicator.games.pictures.scene import Circle, Group, Polygon, Polyline, Scene, Shape, Style, Text, walk

SUPERSAMPLE = 2
"""All but the board is painted this many times larger, then scaled down."""

BLENDS = 32
"""Palette colours besides the scene's own, for smoothed edges (PNG's
compression works best on few colours)."""

FAST_BYTES = 64 * 1024
"""The largest PNG kept from zlib's run-length strategy (``Z_RLE``, about
a third of the CPU of level 6 for a map, some 20 % larger); a picture
that comes out larger is compressed again at level 6.  A map whose bare
board alone takes more than half of it at ``Z_RLE`` goes to level 6
straight away (30JK's: 47 KB; its pictures would take about 90 KB, over
the 80 KB a report's map may take)."""


FONT_FOLDERS = (
    Path("/usr/share/fonts/truetype/dejavu"),  # Debian, Ubuntu
    Path("/usr/share/fonts/dejavu-sans-fonts"),  # Fedora
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),  # Arch
)
"""Where DejaVu Sans is looked for, in this order."""

_ASCII = str.maketrans({"Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Æ": "AE",
                        "æ": "ae", "Ø": "O", "ø": "o", "\u2192": "->", "\u2026": "...", "\u00bb": ">>"})


@cache
def font_file(bold: bool) -> Path | None:
    """The DejaVu Sans file (bold or regular) found first in ``FONT_FOLDERS``, or None."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return next((folder / name for folder in FONT_FOLDERS if (folder / name).is_file()), None)


@cache
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_file(bold)
    if path is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(str(path), size=size)


def _spelt(text: str, bold: bool) -> str:
    """``text`` as the font can show it: unchanged with DejaVu, in ASCII
    with Pillow's built-in font."""
    if font_file(bold) is not None:
        return text
    plain = unicodedata.normalize("NFKD", text.translate(_ASCII))
    return "".join(ch for ch in plain if ch.isascii())


@lru_cache(maxsize=1024)
def _rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as a triple (a scene names few colours, each many times)."""
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _scaled(points: tuple[Point, ...], scale: int) -> list[tuple[float, float]]:
    return [(x * scale, y * scale) for x, y in points]


def _dashes(points: list[tuple[float, float]], pattern: tuple[float, ...],
            scale: int) -> list[list[tuple[float, float]]]:
    """The drawn pieces of a polyline under a dash pattern (points already scaled)."""
    pieces: list[list[tuple[float, float]]] = []
    lengths = [d * scale for d in pattern]
    index, left, drawing = 0, lengths[0], True
    current: list[tuple[float, float]] = [points[0]]
    for p, q in zip(points, points[1:]):
        length = distance(p, q)
        done = 0.0
        while length - done > left:
            done += left
            t = done / length
            cut = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            if drawing:
                current.append(cut)
                pieces.append(current)
            current = [cut]
            drawing = not drawing
            index = (index + 1) % len(lengths)
            left = lengths[index]
        left -= length - done
        if drawing:
            current.append(q)
        else:
            current = [q]
    if drawing and len(current) > 1:
        pieces.append(current)
    return pieces


def _line(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], style: Style, closed: bool,
          scale: int, ink: int | None = None) -> None:
    """The stroke of ``points`` in ``style`` (in palette entry ``ink`` when given)."""
    if style.stroke is None or len(points) < 2:
        return
    path = [*points, points[0]] if closed else points
    width = max(1, round(style.width * scale))
    colour: int | tuple[int, int, int] = _rgb(style.stroke) if ink is None else ink
    for piece in _dashes(path, style.dash, scale) if style.dash else [path]:
        draw.line(piece, fill=colour, width=width, joint="curve")
        if width > 2:
            radius = width / 2
            for x, y in (piece[0], piece[-1]):
                draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)


def _paint(draw: ImageDraw.ImageDraw, shape: Shape, scale: int = SUPERSAMPLE) -> None:
    if isinstance(shape, Group):
        for child in shape.children:
            _paint(draw, child, scale)
    elif isinstance(shape, Polygon):
        points = _scaled(shape.points, scale)
        if len(points) >= 3 and shape.style.fill is not None:
            draw.polygon(points, fill=_rgb(shape.style.fill))
        _line(draw, points, shape.style, True, scale)
    elif isinstance(shape, Polyline):
        _line(draw, _scaled(shape.points, scale), shape.style, False, scale)
    elif isinstance(shape, Circle):
        x, y = shape.centre[0] * SUPERSAMPLE, shape.centre[1] * SUPERSAMPLE
        r = shape.radius * SUPERSAMPLE
        box = (x - r, y - r, x + r, y + r)
        if shape.style.fill is not None:
            draw.ellipse(box, fill=_rgb(shape.style.fill))
        if shape.style.stroke is not None:
            if shape.style.dash:
                steps = max(12, round(2 * math.pi * r / 4))
                ring = [(x + r * math.cos(2 * math.pi * k / steps), y + r * math.sin(2 * math.pi * k / steps))
                        for k in range(steps)]
                _line(draw, ring, shape.style, True, SUPERSAMPLE)
            else:
                draw.ellipse(box, outline=_rgb(shape.style.stroke), width=max(1, round(shape.style.width * SUPERSAMPLE)))
    else:
        _text(draw, shape)


_MASK_MARGIN = 4
"""Room around a text's mask for strokes and glyphs that overhang their box."""


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """A text set once as a greyscale mask, with the offset from the anchor
    point to the mask's top left corner."""
    font = _font(size, bold)
    spelt = _spelt(text, bold)
    stroke = 1 if bold and font_file(True) is None else 0
    left, top, right, bottom = font.getbbox(spelt, anchor=anchor, stroke_width=stroke)
    width = int(right - left) + 2 * _MASK_MARGIN
    height = int(bottom - top) + 2 * _MASK_MARGIN
    mask = Image.new("L", (max(1, width), max(1, height)), 0)
    origin = (_MASK_MARGIN - int(left), _MASK_MARGIN - int(top))
    ImageDraw.Draw(mask).text(origin, spelt, font=font, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255)
    return mask, (-origin[0], -origin[1])


def _text(draw: ImageDraw.ImageDraw, shape: Text) -> None:
    anchor = {"middle": "mm", "start": "lm", "end": "rm"}.get(shape.anchor, "mm")
    mask, (dx, dy) = _text_mask(shape.text, max(1, round(shape.size * SUPERSAMPLE)), shape.bold, anchor)
    x, y = round(shape.at[0] * SUPERSAMPLE) + dx, round(shape.at[1] * SUPERSAMPLE) + dy
    draw.bitmap((x, y), mask, fill=_rgb(shape.fill))


def _named_colours(scene: Scene) -> list[tuple[int, int, int]]:
    """Every colour the scene names (background, fills, strokes, texts), sorted."""
    names: set[str | None] = {scene.background}
    for shape in walk(scene.shapes):
        if isinstance(shape, Text):
            names.add(shape.fill)
        elif not isinstance(shape, Group):
            names.add(shape.style.fill)
            names.add(shape.style.stroke)
    return sorted({_rgb(name) for name in names if name is not None})


def _palette(image: Image.Image, named: list[tuple[int, int, int]]) -> Image.Image:
    """A palette image of the ``named`` colours (at most 256 are kept) and
    ``BLENDS`` more: the median cut of a sample of the pixels of ``image``
    (every fourth in each direction, taken as they are)."""
    sample = image.resize((max(1, image.width // 4), max(1, image.height // 4)), Image.Resampling.NEAREST)
    cut = sample.quantize(colors=BLENDS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).getpalette() or []
    blends = [(cut[i], cut[i + 1], cut[i + 2]) for i in range(0, min(len(cut), 3 * BLENDS), 3)]
    colours = list(dict.fromkeys([*named, *blends]))[:256]
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in colours for value in colour])
    return palette


def _board(scene: Scene) -> tuple[list[Shape], list[Shape]]:
    """The scene's shapes split into the board (the leading run of polygons
    and lines, before the first circle or text) and what lies on it."""
    shapes: list[Shape] = [shape for shape in walk(scene.shapes) if not isinstance(shape, Group)]
    count = 0
    while count < len(shapes) and isinstance(shapes[count], (Polygon, Polyline)):
        count += 1
    return shapes[:count], shapes[count:]


BoardPlan = tuple[tuple[bool, tuple[Point, ...], bool, str | None, float, tuple[float, ...]], ...]
"""A board without its fill colours: per shape whether it is closed (a
polygon), its points, whether it is filled, and its stroke's colour,
width and dash (plain tuples: the plan is hashed and compared for each
picture)."""


def _fill(shape: Shape) -> str | None:
    """The colour ``_paint`` fills a board shape with (None: not filled)."""
    return shape.style.fill if isinstance(shape, Polygon) and len(shape.points) >= 3 else None


def _plan(board: list[Shape]) -> BoardPlan:
    return tuple((isinstance(shape, Polygon), shape.points, _fill(shape) is not None, shape.style.stroke,
                  shape.style.width, shape.style.dash)
                 for shape in board if isinstance(shape, (Polygon, Polyline)))


BoardEntries = tuple[Image.Image, tuple[str, ...], int] | None
"""What ``_board_entries`` gives."""


@lru_cache(maxsize=4)
def _board_entries(width: int, height: int, plan: BoardPlan) -> BoardEntries:
    """The board of ``plan`` painted once as palette entries: 0 where
    nothing is painted, each filled polygon its own entry (1, 2, ... in
    drawing order), then one entry per stroke colour (returned, in order),
    and the bytes that painting takes at zlib's ``Z_RLE``; None when it
    takes more than 256 entries.  A map's board differs from phase to
    phase only in its fill colours (the owners' tints), so a process
    paints each map's board once and only colours it per picture."""
    filled = sum(entry[2] for entry in plan)
    strokes = tuple(dict.fromkeys(stroke for _, _, _, stroke, _, _ in plan if stroke is not None))
    if 1 + filled + len(strokes) > 256:
        return None
    ink = {colour: 1 + filled + index for index, colour in enumerate(strokes)}
    image = Image.new("P", (width, height), 0)
    draw = ImageDraw.Draw(image)
    fill = 1
    for closed, points, is_filled, stroke, line_width, dash in plan:
        scaled = _scaled(points, 1)
        if is_filled:
            draw.polygon(scaled, fill=fill)
            fill += 1
        _line(draw, scaled, Style(None, stroke, line_width, dash), closed, 1, ink.get(stroke or ""))
    squeezer = zlib.compressobj(6, zlib.DEFLATED, 15, 8, zlib.Z_RLE)
    return image, strokes, len(squeezer.compress(image.tobytes()) + squeezer.flush())


def _painted_board(scene: Scene, board: list[Shape]) -> Image.Image:
    """The board painted shape by shape at the picture's size, on the background."""
    crisp = Image.new("RGB", (scene.width, scene.height), _rgb(scene.background))
    draw = ImageDraw.Draw(crisp)
    for shape in board:
        _paint(draw, shape, 1)
    return crisp


def _coloured_board(scene: Scene, board: list[Shape], entries: BoardEntries) -> Image.Image:
    """The board at the picture's size, the same pixels as ``_painted_board``:
    the process's painting of the map's board (``entries``) in this scene's
    colours, else painted anew."""
    if entries is None:
        return _painted_board(scene, board)
    image, strokes, _ = entries
    fills = (_fill(shape) for shape in board)
    colours = [_rgb(scene.background), *(_rgb(fill) for fill in fills if fill is not None),
               *(_rgb(colour) for colour in strokes)]
    coloured = image.copy()
    coloured.putpalette([value for colour in colours for value in colour])
    return coloured.convert("RGB")


def to_png(scene: Scene) -> bytes:
    """The scene as PNG bytes, ``scene.width`` x ``scene.height`` pixels,
    palette colour (``png_bytes`` of ``picture``, fast unless the map's
    bare board fills half of ``FAST_BYTES``); deterministic for a given
    Pillow version."""
    board, rest = _board(scene)
    entries = _board_entries(scene.width, scene.height, _plan(board))
    return png_bytes(_picture(scene, board, rest, entries), fast=entries is None or entries[2] <= FAST_BYTES // 2)


def picture(scene: Scene) -> Image.Image:
    """The scene painted as a palette image (what ``to_png`` writes)."""
    board, rest = _board(scene)
    return _picture(scene, board, rest, _board_entries(scene.width, scene.height, _plan(board)))


def _picture(scene: Scene, board: list[Shape], rest: list[Shape], entries: BoardEntries) -> Image.Image:
    crisp = _coloured_board(scene, board, entries)
    big = crisp.resize((scene.width * SUPERSAMPLE, scene.height * SUPERSAMPLE), Image.Resampling.NEAREST)
    draw = ImageDraw.Draw(big)
    for shape in rest:
        _paint(draw, shape)
    small = big.reduce(SUPERSAMPLE)
    return small.quantize(palette=_palette(small, _named_colours(scene)), dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, fast: bool = True) -> bytes:
    """``image`` as PNG bytes: with ``fast``, compressed with zlib's
    ``Z_RLE`` strategy when that gives at most ``FAST_BYTES``; otherwise
    at level 6 with the default strategy (the smaller file, at about three
    times the CPU); either way the same pixels, and the same bytes for the
    same image and ``fast``."""
    out = io.BytesIO()
    if fast:
        image.save(out, format="PNG", compress_level=6, compress_type=zlib.Z_RLE)
        if out.tell() <= FAST_BYTES:
            return out.getvalue()
        out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()
