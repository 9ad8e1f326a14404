"""A finished table's result as a PNG for the group's chat (issue 42), drawn with Pillow.

Plain Python, no Flask: `png(table, lang, theme)` gives the image's bytes; the routes
(companion/web/images.py) and the bench call it, and `Images` keeps the latest few in memory.

What it shows is the result document (`results.result`, CONTRACT.md "results") said in the
reader's language: the game's title, the day the game ended, each player ranked with their place,
the seat's colour, the name, the total and the breakdown (the words the play's record names each
key in), the winners marked, the verdict (who won, and on what), and the play time where the turn
clock ran. 1080 x 1350 (4:5), which chat previews show whole; its type stays readable at a third
of that size. The colours are the app's (static/app.css), light or dark.

Nothing secret is drawn (no token, no join link) and the PNG carries no text chunk at all. The same
play, language and theme give the same bytes: nothing drawn depends on the time of drawing.

The font is DejaVu Sans, shipped in data/fonts/ (its license beside it): it covers the six
languages and most names people type. Nothing is fetched at run time.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from . import results, tables
from .games import clock, colours, speech, words
from .games.speech import _
from .paths import FACTS
from .wording import breakdown_label

WIDTH, HEIGHT = 1080, 1350
MARGIN = 60
FONTS = FACTS / "fonts"
REGULAR, BOLD = FONTS / "DejaVuSans.ttf", FONTS / "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"
#: the verdict is a sentence of one of our six left-to-right languages, whatever script the winner's
#: name is in: drawn left to right ("محمد wins" read backwards otherwise). Pillow takes a direction only
#: with libraqm; without it, every line is drawn left to right anyway
SENTENCE = {"direction": "ltr"} if features.check("raqm") else {}
STAR = "★"

#: static/app.css's variables, the same hex values (tests/foundation/test_result_image.py checks them)
THEMES = {
    "light": {
        "bg": "#f7f5f0",  # --bg
        "fg": "#1d1b18",  # --fg
        "card": "#ffffff",  # --card
        "muted": "#6b665e",  # --muted
        "line": "#d9d4ca",  # --line
        "accent": "#2f5d8a",  # --accent
        "ok": "#2e7d32",  # --ok (.winner)
    },
    "dark": {
        "bg": "#141312",  # --bg
        "fg": "#efebe4",  # --fg
        "card": "#1f1d1b",  # --card
        "muted": "#a39d92",  # --muted
        "line": "#3a3632",  # --line
        "accent": "#7fb0e0",  # --accent
        "ok": "#81c784",  # --ok (.winner)
    },
}
DEFAULT_THEME = "light"


def theme_of(value: object) -> str:
    """The theme a query asks for: "dark", else the light one (any other value, or none)."""
    return "dark" if value == "dark" else DEFAULT_THEME


# --- what is drawn -------------------------------------------------------------------------------

@dataclass
class Row:
    """One player as the image shows them."""

    place: str
    name: str
    total: str
    won: bool
    colour: tuple[str, str] | None  # the swatch (light, dark), where the seat has a colour
    extra: str = ""  # a solo title or outcome, as the record shows it
    #: (label, value) of the breakdown, in the game's order
    parts: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class Content:
    title: str
    day: str
    verdict: str
    time: str  # "Play time: 1:05:09", or "" where no turn clock ran
    rows: list[Row]


def finished_day(stamp: str) -> datetime:
    """When the game ended (`finished_at`), in the server's local time, as the play's record shows it."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()


def lasted(ms: int) -> str:
    """A play's length in words a chat reads at once: "42 min", "1 h 05 min" ("0:09" was read as nine hours' minutes)."""
    minutes = round(max(0, int(ms)) / 60_000)
    if minutes < 1:
        # Translators: a play's length on the shared image, shorter than a minute
        return _("less than a minute")
    if minutes < 60:
        # Translators: a play's length on the shared image: "42 min"
        return _("%(minutes)s min", minutes=minutes)
    # Translators: a play's length on the shared image: "1 h 05 min"
    return _("%(hours)s h %(minutes)s min", hours=minutes // 60, minutes=str(minutes % 60).zfill(2))


def content(table: tables.Table, doc: dict) -> Content:
    """What the image says of a result, in the language spoken."""
    game = table.rules
    ranked = sorted(doc["players"], key=lambda p: p["place"])
    rows = []
    for p in ranked:
        swatch = colours.swatch(p.get("colour"))
        # the parts that scored: a row of zeros (Galileo's Stake for all, Voynich's solo Tokens at a table
        # of three) hid the parts that decided (the playtest)
        labels = [(breakdown_label(game, k), v) for k, v in p["breakdown"].items() if v != 0]
        rows.append(Row(place=words.ordinal(p["place"]), name=p["name"], total=speech.number(p["total"]),
                        won=p["name"] in doc["winners"], colour=(swatch["light"], swatch["dark"]) if swatch else None,
                        extra=game.extra_words(p), parts=labels))
    timed = clock.totals(table.state)
    played = ""
    if timed is not None:
        # Translators: on the shared image of a result: the turn clock's total, "Play time: 1 h 05 min"
        played = _("Play time: %(time)s", time=lasted(sum(seat["time_ms"] for seat in timed)))
    return Content(title=game.title_of(table.options), day=speech.day(finished_day(doc["finished_at"]), "long"),
                   verdict=str(results.verdict(doc)).replace("\u2068", "").replace("\u2069", ""), time=played, rows=rows)


# --- drawing -------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


def width(text: str, face: ImageFont.FreeTypeFont) -> float:
    return face.getlength(text)


def fit(text: str, face: ImageFont.FreeTypeFont, room: float) -> str:
    """`text` cut with an ellipsis to fit `room` pixels (whole when it fits)."""
    if width(text, face) <= room:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest start that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if width(text[:mid].rstrip(" -") + ELLIPSIS, face) <= room:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip(" -") + ELLIPSIS  # never "Wróblewska-…"


def wrap(text: str, face: ImageFont.FreeTypeFont, room: float, lines: int) -> list[str]:
    """`text` in at most `lines` lines of `room` pixels, broken at spaces; the last one cut if need be."""
    out: list[str] = []
    rest = text.split()
    while rest and len(out) < lines:
        line = rest.pop(0)
        while rest and width(line + " " + rest[0], face) <= room:
            line += " " + rest.pop(0)
        if len(out) == lines - 1 and rest:  # the last line holds the rest, cut
            line = line + " " + " ".join(rest)
            rest = []
        out.append(fit(line, face, room))
    return out


def flow(chips: list[str], face: ImageFont.FreeTypeFont, room: float, gap: float) -> list[list[int]]:
    """The chips laid in lines of `room` pixels: each line the indexes of its chips."""
    lines: list[list[int]] = []
    used = room + 1
    for i, chip in enumerate(chips):
        w = width(chip, face)
        if lines and used + gap + w <= room:
            lines[-1].append(i)
            used += gap + w
        else:
            lines.append([i])
            used = w
    return lines


def shown_parts(parts: list[tuple[str, int]], face: ImageFont.FreeTypeFont, room: float, gap: float,
                most: int) -> list[list[str]]:
    """The breakdown's chips in at most `most` lines: all of them, else the top ones (by value) that fit."""
    if most <= 0 or not parts:
        return []
    keep = list(range(len(parts)))
    while keep:
        chips = [f"{parts[i][0]} {speech.number(parts[i][1])}" for i in keep]
        lines = flow([fit(c, face, room) for c in chips], face, room, gap)
        if len(lines) <= most:
            return [[fit(chips[i], face, room) for i in line] for line in lines]
        # the smallest part leaves first (the game's order kept among those left)
        keep.remove(min(keep, key=lambda i: (abs(parts[i][1]) if isinstance(parts[i][1], (int, float)) else 0, -i)))
    return []


def draw(c: Content, theme: str) -> Image.Image:
    """The image of `c` in one theme."""
    ink = THEMES[theme_of(theme)]
    image = Image.new("RGB", (WIDTH, HEIGHT), ink["bg"])
    pen = ImageDraw.Draw(image)
    room = WIDTH - 2 * MARGIN
    y = MARGIN
    face = font(76, True)
    for line in wrap(c.title, face, room, 1):
        pen.text((MARGIN, y), line, font=face, fill=ink["fg"])
        y += 92
    face = font(40)
    pen.text((MARGIN, y), fit(c.day, face, room), font=face, fill=ink["muted"])
    y += 62
    size = 44 if len(wrap(c.verdict + " " + ELLIPSIS, font(44, True), room, 4)) <= 3 else 36  # a long tie-break, smaller
    face = font(size, True)
    for line in wrap(c.verdict, face, room, 4):
        pen.text((MARGIN, y), line, font=face, fill=ink["ok"], **SENTENCE)
        y += size + 12
    if c.time:
        face = font(38)
        pen.text((MARGIN, y), fit(c.time, face, room), font=face, fill=ink["fg"])
        y += 52
    y += 20
    footer = HEIGHT - MARGIN - 36
    cards(pen, c.rows, ink, theme_of(theme), y, footer - 24)
    face = font(32)
    name = "Table Companion"
    pen.text((WIDTH - MARGIN - width(name, face), footer), name, font=face, fill=ink["muted"])
    return image


#: the cards' type grows up to this much where few players leave room (two players fill the image as four do),
#: and shrinks a little before a breakdown loses a part (German's longer words dropped Galileo's Penance)
GROWTH = (1.5, 1.35, 1.2, 1.0, 0.9, 0.8)
#: a name's smallest type, at any scale, before it is cut with "…"
NAME_MIN = 40


def cards(pen: ImageDraw.ImageDraw, rows: list[Row], ink: dict, theme: str, top: int, bottom: int) -> None:
    """One card per player, ranked, each as tall as it needs; the breakdowns cut to the room between `top` and `bottom`.

    The cards' type is the largest of GROWTH at which every card shows its whole breakdown (the
    smallest where none does, and then the smallest parts leave): a play of two players is drawn as
    large as the room allows, one of four in long words a little smaller.
    """
    if not rows:
        return
    plain = Layout(rows, 1.0)
    for scale in GROWTH:
        layout = Layout(rows, scale)
        # every breakdown whole, and, where the type grows, every name shown as much as without (a grown
        # name was cut to "Żaneta Wr…")
        if layout.height(layout.lines) <= bottom - top and (scale <= 1 or all(a >= b for a, b in zip(layout.shown_names(), plain.shown_names()))):
            break
    layout.squeeze(bottom - top)
    layout.draw(pen, ink, theme, top)


class Layout:
    """The cards' sizes at one scale of type, and how many lines of its breakdown each card shows."""

    def __init__(self, rows: list[Row], scale: float):
        self.rows, self.s = rows, scale
        self.gap, self.line_h, self.pad = 16, round(44 * scale), round(20 * scale)
        self.big = round((60 if len(rows) <= 3 else 54) * scale)
        self.head = self.big + round(36 * scale)  # the place, name and total's line
        self.small, self.strong = font(round(34 * scale)), font(round(34 * scale), True)
        self.chip_gap = round(36 * scale)
        self.room = WIDTH - 2 * MARGIN - 64
        chips = [[f"{label} {speech.number(value)}" for label, value in row.parts] for row in rows]
        self.under = [1 if row.extra else 0 for row in rows]
        self.lines = [len(flow([fit(c, self.small, self.room) for c in row], self.small, self.room, self.chip_gap)) if row else 0
                      for row in chips]

    def tall(self, i: int, lines: list[int]) -> int:
        return self.pad + self.head + (self.under[i] + lines[i]) * self.line_h + self.pad

    def height(self, lines: list[int]) -> int:
        return sum(self.tall(i, lines) for i in range(len(self.rows))) + self.gap * (len(self.rows) - 1)

    def squeeze(self, room: int) -> None:
        """Take breakdown lines away, the longest breakdown's first, until the cards fit `room`."""
        while self.height(self.lines) > room and any(self.lines):
            self.lines[max(range(len(self.rows)), key=lambda i: (self.lines[i], i))] -= 1

    def name_room(self, row: Row) -> tuple[float, float]:
        """Where a card's name starts, from its left edge, and the room it has up to its total (and star)."""
        big = self.big
        x = 32 + max(width(r.place, font(big - 14, True)) for r in self.rows) + 24
        if row.colour:
            x += big - 14 + 20
        total_w = width(row.total, font(big + 8, True)) + (width(STAR + " ", font(big + 8, True)) if row.won else 0)
        return x, WIDTH - 2 * MARGIN - 32 - total_w - 32 - x

    def name_sizes(self) -> list[int]:  # a long name's smaller types, before it is cut
        return [n for n in (self.big, round(self.big * 0.85), round(self.big * 0.72), NAME_MIN) if n <= self.big]

    def shown_names(self) -> list[int]:
        """How many letters of each name this scale shows (in its smallest type, where it is cut)."""
        face = font(self.name_sizes()[-1], True)
        return [min(len(row.name), len(fit(row.name, face, self.name_room(row)[1]).rstrip(ELLIPSIS))) for row in self.rows]

    def draw(self, pen: ImageDraw.ImageDraw, ink: dict, theme: str, top: int) -> None:
        rows, big = self.rows, self.big
        place_face, total_face = font(big - 14, True), font(big + 8, True)
        place_w = max(width(row.place, place_face) for row in rows)
        small, strong, line_h, pad = self.small, self.strong, self.line_h, self.pad
        y0 = top
        for i, row in enumerate(rows):
            x0, x1 = MARGIN, WIDTH - MARGIN
            tall = self.tall(i, self.lines)
            pen.rounded_rectangle((x0, y0, x1, y0 + tall), radius=24, fill=ink["card"],
                                  outline=ink["ok"] if row.won else ink["line"], width=6 if row.won else 2)
            x, y = x0 + 32, y0 + pad
            pen.text((x, y + round(10 * self.s)), row.place, font=place_face, fill=ink["ok"] if row.won else ink["muted"])
            x += place_w + 24
            if row.colour:  # the seat's colour, ringed so that white shows on a white card
                d = big - 14
                cy = y + big // 2 + round(6 * self.s)
                pen.ellipse((x, cy - d // 2, x + d, cy + d // 2), fill=row.colour[0 if theme == "light" else 1],
                            outline=ink["muted"], width=2)
                x += d + 20
            total_w = width(row.total, total_face)
            pen.text((x1 - 32 - total_w, y - 4), row.total, font=total_face, fill=ink["fg"])
            if row.won:  # a star before the winner's total, beside the card's green edge and place
                total_w += width(STAR + " ", total_face)
                pen.text((x1 - 32 - total_w, y - 4), STAR, font=total_face, fill=ink["ok"])
            room = self.name_room(row)[1]
            size = next((n for n in self.name_sizes() if width(row.name, font(n, True)) <= room), self.name_sizes()[-1])
            pen.text((x, y + round((big - size) * 0.8)), fit(row.name, font(size, True), room), font=font(size, True), fill=ink["fg"])
            y += self.head
            if self.under[i]:
                pen.text((x0 + 32, y), fit(row.extra, strong, self.room), font=strong, fill=ink["fg"])
                y += line_h
            for line in shown_parts(row.parts, small, self.room, self.chip_gap, self.lines[i]):
                lx = x0 + 32
                for chip in line:
                    label, _sep, value = chip.rpartition(" ")
                    if not label or chip.endswith(ELLIPSIS):  # a chip cut to fit: drawn as it is
                        pen.text((lx, y), chip, font=small, fill=ink["muted"])
                    else:
                        pen.text((lx, y), label + " ", font=small, fill=ink["muted"])
                        pen.text((lx + width(label + " ", small), y), value, font=strong, fill=ink["fg"])
                    lx += width(chip, small) + self.chip_gap
                y += line_h
            y0 += tall + self.gap


# --- the image's bytes, and the latest kept ------------------------------------------------------

def png(table: tables.Table, lang: str | None = None, theme: str = DEFAULT_THEME) -> bytes:
    """The PNG of a finished table's result in `lang` and `theme`; results.NotOver before the end."""
    doc = results.result(table)
    out = BytesIO()
    with speech.speaking(lang if lang is not None else speech.language()):
        image = draw(content(table, doc), theme)
    image.save(out, format="PNG", optimize=False, compress_level=6)  # no text chunk: no pnginfo given
    return out.getvalue()


def file_name(table: tables.Table) -> str:
    """The image's file name: "gutenberg-2026-12-03-2114.png", the day and minute the game ended (two
    plays of one evening are two files; no player's name)."""
    if not table.finished_at:
        return f"{table.game}.png"
    return f"{table.game}-{finished_day(table.finished_at):%Y-%m-%d-%H%M}.png"


#: what else the bytes depend on besides the play, language and theme: the app's code and catalogs (the
#: games' labels and verdicts, the words, the translations), the fonts, Pillow and Babel. An upgrade
#: draws anew, and a phone's cached image (kept for good under its version's address) is not taken for
#: the new one: the ETag changes with it
def _drawing() -> str:
    import babel

    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(p for p in package.rglob("*") if p.suffix in (".py", ".mo") and p.is_file()):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    for path in (REGULAR, BOLD):
        digest.update(path.read_bytes())
    digest.update(f"{Image.__version__} {babel.__version__}".encode())
    return digest.hexdigest()


DRAWING = _drawing()


@dataclass(frozen=True)
class Made:
    body: bytes
    etag: str
    name: str


class Images:
    """The latest images made, in memory: at most `size`, the least recently asked leaves first.

    Keyed by the table, its version, the language and the theme: any new event (an undone end,
    a renamed player) is a new version, so a stale image is never answered.
    """

    def __init__(self, size: int = 48):
        self.size = size
        self._kept: OrderedDict[tuple, Made] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(table: tables.Table, lang: str, theme: str) -> tuple:
        return (table.id, table.version, speech.known(lang), theme_of(theme))

    @classmethod
    def etag(cls, table: tables.Table, lang: str, theme: str) -> str:
        """The image's ETag, known before it is drawn: a phone's `If-None-Match` is answered 304 without
        drawing (versions only grow: an undo is a new version, never an old one again)."""
        return hashlib.sha256(repr((cls.key(table, lang, theme), DRAWING)).encode()).hexdigest()[:32]

    def get(self, table: tables.Table, lang: str, theme: str) -> Made:
        key = self.key(table, lang, theme)
        with self._lock:
            made = self._kept.get(key)
            if made is not None:
                self._kept.move_to_end(key)
                return made
        body = png(table, key[2], key[3])  # outside the lock: two phones may draw at once, both get the same
        made = Made(body, self.etag(table, lang, theme), file_name(table))
        with self._lock:
            self._kept[key] = made
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return made

    def __len__(self) -> int:
        return len(self._kept)
