"""Picture primitives every game may draw with.

A ``Scene`` is pure data (polygons, lines, circles, texts in groups);
``to_svg`` and ``to_png`` write it deterministically.  A game draws its
own board as a scene; the service only turns scenes into attachments.
"""
