"""The plays archive's charts, as small SVG drawn here: each player's score over a game, and bars.

Plain Python, no Flask: the archive's pages put the markup inline (companion/web/plays.py), where
the page's own CSS colours it (static/app.css, "plays archive": the series colours are CSS
variables with light and dark values, text and grid lines are the page's colours), so one drawing
reads in both schemes. Nothing here runs a script or loads anything.

Why drawn by hand and not with pygal (issue 12 asks for a well-kept library where one serves
better). pygal 3.1.3, from PyPI, was tried against our pages:

- it writes an inline `<script>` into every chart, its configuration for its tooltips, even with
  `js=[]`; our CSP (`script-src 'self'`) blocks it and the browser reports a violation on every
  page. By default it also loads its tooltip script from a CDN (kozea.github.io), which an offline
  table has no access to. So the interactive part that sets it apart from plain SVG cannot run here.
  Keeping it quiet would mean cutting its output apart after each render;
- what is left is a static line or bar chart, which is what this module draws in about 200 lines;
- it can be coloured for dark mode (its Style takes `currentColor` and `var(--...)`), but sets
  font sizes in pixels and draws its legend inside the SVG, where long names are cut short.
  The archive's legend is HTML beside the chart instead: names as text that wraps at 360 px, each
  with the swatch drawn here (its colour, its dash and its marker shape, so not colour alone);
- a chart is about 17 KB with random element ids, where one drawn here is 2 KB and the same on
  every render (the tests compare the drawn points with `results.series`);
- it brings three more packages (importlib-metadata, zipp, lazy-importer) for that.
"""

from __future__ import annotations

import math
from html import escape
from typing import Sequence

from .games.speech import _, pgettext

#: how many series styles there are (static/app.css defines --series-0 ... --series-5)
STYLES = 6
#: dash patterns, one per style, so that series differ by more than colour
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 4", "1 5")
MARKERS = ("circle", "square", "triangle", "diamond", "circle", "square")
#: a line chart draws a marker on every point up to this many points, else only on the last one
MARKED_POINTS = 24

WIDTH, HEIGHT = 340, 210
LEFT, RIGHT, TOP, BOTTOM = 40, 14, 12, 30


def style_of(index: int) -> int:
    """Return the style (colour, dash, marker) of the series at this index."""
    return index % STYLES


def ticks(low: float, high: float, most: int = 5) -> list[int]:
    """Return round values from at most `low` to at least `high`, at most `most`+1 of them, a whole step apart."""
    low, high = math.floor(min(low, 0)), math.ceil(max(high, low + 1))
    span = high - low
    step = 1
    for magnitude in (10 ** k for k in range(0, 10)):
        found = next((m * magnitude for m in (1, 2, 5) if span / (m * magnitude) <= most), None)
        if found:
            step = found
            break
    start = math.floor(low / step) * step
    end = math.ceil(high / step) * step
    return list(range(start, end + step, step))


def _marker(shape: str, x: float, y: float, size: float = 4.0) -> str:
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}"/>'
    if shape == "square":
        return f'<rect x="{x - size:.1f}" y="{y - size:.1f}" width="{2 * size:.1f}" height="{2 * size:.1f}"/>'
    if shape == "triangle":
        s = size * 1.25
        return f'<path d="M{x:.1f} {y - s:.1f}L{x + s:.1f} {y + s * 0.8:.1f}L{x - s:.1f} {y + s * 0.8:.1f}Z"/>'
    s = size * 1.3  # diamond
    return f'<path d="M{x:.1f} {y - s:.1f}L{x + s:.1f} {y:.1f}L{x:.1f} {y + s:.1f}L{x - s:.1f} {y:.1f}Z"/>'


def _series_attrs(style: int) -> str:
    dash = DASHES[style]
    return f'class="chart-series s{style}"' + (f' stroke-dasharray="{dash}"' if dash else "")


def swatch(index: int) -> str:
    """Return a small SVG of series `index`'s line and marker: the legend's key beside a name."""
    style = style_of(index)
    return (f'<svg class="swatch" viewBox="0 0 32 14" width="32" height="14" aria-hidden="true" focusable="false">'
            f'<g {_series_attrs(style)}><line x1="1" y1="7" x2="31" y2="7"/></g>'
            f'<g class="chart-marks s{style}">{_marker(MARKERS[style], 16, 7, 4)}</g></svg>')


def positions(points: Sequence[Sequence[int]]) -> list[list[tuple[float, float]]]:
    """Return each series' (x, y) in the line chart's coordinates: points[i][s] is series s after change i."""
    count = len(points)
    series = len(points[0]) if count else 0
    values = [v for p in points for v in p] or [0]
    scale = ticks(min(values), max(values))
    low, high = scale[0], scale[-1]
    width, height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (width * i / (count - 1) if count > 1 else width / 2)

    def y(v: float) -> float:
        return TOP + height * (high - v) / (high - low)

    return [[(x(i), y(p[s])) for i, p in enumerate(points)] for s in range(series)]


def line_chart(names: Sequence[str], points: Sequence[Sequence[int]], label: str) -> str:
    """Return an inline <svg> of each player's score over the game.

    `points[i]` holds every player's score after the i-th change (in seat order, as `names`);
    `label` says what the chart shows, for screen readers (the page says it too). The x axis runs
    from the start of the game to its end, one step per change of score.
    """
    if not points:
        raise ValueError("a line chart needs at least one point")
    values = [v for p in points for v in p]
    scale = ticks(min(values), max(values))
    low, high = scale[0], scale[-1]
    height = HEIGHT - TOP - BOTTOM
    parts = [f'<svg class="chart chart-line" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}"'
             f' xmlns="http://www.w3.org/2000/svg">', '<g class="grid">']
    for value in scale:
        y = TOP + height * (high - value) / (high - low)
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value}</text>')
    parts.append("</g>")
    base = HEIGHT - BOTTOM + 18
    start, end = pgettext("chart axis", "start"), pgettext("chart axis", "end")  # the game's start and end
    parts.append(f'<g class="axis"><text x="{LEFT}" y="{base}">{escape(start)}</text>'
                 f'<text x="{WIDTH - RIGHT}" y="{base}" text-anchor="end">{escape(end)}</text></g>')
    for s, line in enumerate(positions(points)):
        style = style_of(s)
        name = names[s] if s < len(names) else _("Seat %(number)s", number=s + 1)
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in line)
        marked = line if len(line) <= MARKED_POINTS else line[-1:]
        marks = "".join(_marker(MARKERS[style], x, y) for x, y in marked)
        parts.append(f'<g data-series="{s}" data-name="{escape(name)}"><title>{escape(name)}</title>'
                     f'<polyline {_series_attrs(style)} points="{coords}"/>'
                     f'<g class="chart-marks s{style}">{marks}</g></g>')
    parts.append("</svg>")
    return "".join(parts)


BAR_ROW, BAR_GAP = 42, 4
#: names up to this many characters fit the chart's width at its font size; longer ones are drawn narrower
NAME_FITS = 34


def bar_chart(rows: Sequence[tuple[str, int]], label: str) -> str:
    """Return an inline <svg> of horizontal bars, one per (name, value), with the name and value written beside it."""
    rows = list(rows)
    most = max([v for _, v in rows] + [1])
    end = WIDTH - 34  # room for the value after the longest bar
    height = max(1, len(rows)) * BAR_ROW + 4
    parts = [f'<svg class="chart chart-bars" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(label)}"'
             f' xmlns="http://www.w3.org/2000/svg">']
    for i, (name, value) in enumerate(rows):
        top = 2 + i * BAR_ROW
        width = end * max(value, 0) / most
        # the whole name on its own line above its bar, from the left edge (issue 27: a long name was cut
        # at the left of a label column); a name wider than the chart is drawn narrower, never cut
        squeeze = f' textLength="{WIDTH - 4}" lengthAdjust="spacingAndGlyphs"' if len(name) > NAME_FITS else ""
        parts.append(f'<g data-name="{escape(name)}" data-value="{value}"><title>{escape(name)}: {value}</title>'
                     f'<text x="2" y="{top + 15}"{squeeze}>{escape(name)}</text>'
                     f'<rect class="bar" x="0" y="{top + 20}" width="{width:.1f}" height="{BAR_ROW - 20 - BAR_GAP}" rx="3"/>'
                     f'<text class="value" x="{width + 6:.1f}" y="{top + BAR_ROW - BAR_GAP - 2}">{value}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
