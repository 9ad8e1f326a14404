"""A colour per seat, in every game: the shared palette, and the checks of a table's and a profile's colours.

No rule text names the players' colours: Gutenberg has "4 player colors", Galileo "your chosen
color", Voynich "components of one colour" (RULES.md, "The players' colours"). So the colours a
game's pieces come in are read off the components by the group, entered once in the box profile
(`colours`: palette keys), and each seat takes one at setup (`colours`: a key or null per seat).
Where the profile lists none, setup offers the whole palette.

The palette's names are said in every language; its two CSS values per colour (light and dark
page) are ours, only to draw a swatch beside a name: never the only way a seat is told apart.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from .speech import N_, NC_, _, said
from .validation import RulesError, at, distinct, listof


class Colour(NamedTuple):
    """A palette colour: its name (NC_ marked) and the swatch's CSS colour on a light and a dark page."""

    name: tuple[str, str]
    light: str
    dark: str


#: the shared palette, by key: the keys are the API's, the names the pages' (a swatch is only drawn)
PALETTE: dict[str, Colour] = {
    "red": Colour(NC_("player colour", "red"), "#d32f2f", "#ef5350"),
    "blue": Colour(NC_("player colour", "blue"), "#1e5fb4", "#64a5f0"),
    "green": Colour(NC_("player colour", "green"), "#2e7d32", "#66bb6a"),
    "yellow": Colour(NC_("player colour", "yellow"), "#f2c200", "#ffd740"),
    "black": Colour(NC_("player colour", "black"), "#1d1b18", "#000000"),
    "white": Colour(NC_("player colour", "white"), "#ffffff", "#f5f5f5"),
    "purple": Colour(NC_("player colour", "purple"), "#7b1fa2", "#ba68c8"),
    "orange": Colour(NC_("player colour", "orange"), "#ef6c00", "#ffa040"),
    "pink": Colour(NC_("player colour", "pink"), "#e86fa6", "#f8a5c8"),
    "grey": Colour(NC_("player colour", "grey"), "#8a8a8a", "#9e9e9e"),
    "brown": Colour(NC_("player colour", "brown"), "#795032", "#a1765a"),
    # the 12th (issue 43): a table of 12 seats (the score pad) gives each its own; a blue-green apart from both
    "teal": Colour(NC_("player colour", "teal"), "#00897b", "#4db6ac"),
}
#: how a page names the fields (companion/wording.py): the start form's rows, the profile's list
SETUP_LABELS = {"colours": N_("the players' colours"), "colours[]": N_("Player {number}'s colour")}
PROFILE_LABELS = {"colours": N_("the colours the pieces come in"), "colours[]": N_("the {nth} colour the pieces come in")}


def _key(value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in PALETTE:
        raise RulesError(field, _("must be one of: %(options)s", options=", ".join(PALETTE)))
    return value


def profile_colours(value: Any, field: str = "colours") -> list[str]:
    """Check a box profile's `colours`: palette keys, each once, in the order the group gives them."""
    return list(distinct(value, field, _key, 0, len(PALETTE)))


def offered(profile: dict) -> list[str]:
    """The colours a table of this profile may take: the profile's, else the whole palette."""
    return list(profile.get("colours") or PALETTE)


def table_colours(value: Any, names: Sequence[str], profile: dict, field: str = "colours") -> list[str | None]:
    """Check a table's `colours`: a palette key or null per seat, no two seats alike, the profile's only."""
    seats = listof(value, field, len(names), len(names))
    allowed = offered(profile)
    taken: dict[str, int] = {}
    for seat, key in enumerate(seats):
        if key is None:
            continue
        path = at(field, seat)
        _key(key, path)
        if key not in allowed:
            raise RulesError(path, _("is not among the box profile's colours: %(colours)s", colours=", ".join(allowed)))
        if key in taken:
            raise RulesError(path, _("%(name)s has this colour already", name=names[taken[key]]))
        taken[key] = seat
    return list(seats)


def with_colours(options: dict, doc: dict, names: Sequence[str], profile: dict) -> dict:
    """The setup options with the create document's `colours` checked in (kept only when a seat has one)."""
    if doc.get("colours") is None:
        return options
    seats = table_colours(doc["colours"], names, profile)
    return {**options, "colours": seats} if any(seats) else options


def of_seat(options: dict, seat: Any) -> str | None:
    """The palette key of a seat's colour at a table with these options, or None."""
    seats = options.get("colours") if isinstance(options, dict) else None
    if not isinstance(seats, list) or not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats):
        return None
    return seats[seat] if seats[seat] in PALETTE else None


def swatch(key: Any) -> dict | None:
    """What a page draws for a colour: its key, its name in the language spoken, its two CSS values."""
    if not isinstance(key, str) or key not in PALETTE:
        return None
    colour = PALETTE[key]
    return {"key": key, "name": said(colour.name), "light": colour.light, "dark": colour.dark}


def palette() -> list[dict]:
    """The swatches of the whole palette, for a form."""
    return [swatch(key) for key in PALETTE]


def seat_swatch(options: dict, seat: Any) -> dict | None:
    """The swatch of a seat's colour at a table with these options, or None: the macro seat_colour's."""
    return swatch(of_seat(options, seat))


def seat_player(name: str, options: dict, seat: int) -> dict:
    """A player as the API's table document lists them: the name, and the seat's colour when it has one."""
    key = of_seat(options, seat)
    return {"name": name, "colour": key} if key else {"name": name}
