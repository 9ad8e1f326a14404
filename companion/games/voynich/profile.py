"""The Voynich Puzzle's box profile: the values printed on the components, entered once (RULES.md VOY-B).

Nothing printed is guessed by the app; a profile may hold any of:

- `track`: the score track's scoring spaces {position: GK} (B1), the positions of its insight
  symbols (B2) and the number printed at its end-of-game symbol (VOY-C12);
- `grid`: the puzzle grid, the GK printed in each cell by row, null where there is no space (B3);
- `solo_spaces`: the numbers 1-40 printed in each numbered part of the solo board (B7);
- `cards`: a card catalogue, number -> its section, its phase 2-4 multipliers and, for a Recipes
  card, its two knowledge types (B4, B5).

A table may also enter the score track's values itself (the `track` event, over these).
"""

from __future__ import annotations

from typing import Any

from ..speech import N_, _
from ..validation import RulesError, at, choice, listof, obj, whole
from ..words import ordinal
from . import functions, rules
from .rules import KNOWLEDGE, SECTIONS

#: the numbered parts of the solo board, in board order (VOY-B7, D1 step 4.5)
SOLO_PARTS = {
    "botany_roots": N_("Botany: root tips (water drop)"),
    "botany_branches": N_("Botany: branches and flowers (plant growth)"),
    "astrology": N_("Astrology: sectors (star or text)"),
    "writings": N_("Writings: rows (text, star, translate)"),
    "baths_springs": N_("Baths: springs (water drop)"),
    "first_basin": N_("Baths: first basin (purify)"),
    "second_basin": N_("Baths: second basin rewards"),
    "recipes": N_("Recipes: spaces"),
}
GRID_MAX = 20
#: the sections as the form's choices name them (the same words as calculator.SECTION_LABELS)
SECTION_WORDS = {"botany": N_("Botany"), "astrology": N_("Astrology"), "baths": N_("Baths"), "writings": N_("Writings"),
                 "recipes": N_("Recipes")}
#: a generous bound on the GK printed on a puzzle space (B3), to catch typing slips: no rule, like GRID_MAX
CELL_GK_HI = 99


def check_track(value: Any, field: str) -> dict:
    """Check the score track's printed values: scoring spaces, insight symbols, end symbol (B1, B2)."""
    obj(value, field, optional=("scoring_spaces", "spaces", "insights", "end"))
    value = spaces_from_rows(value, field)
    if value.get("insights") == []:
        value = {k: v for k, v in value.items() if k != "insights"}  # every insight field left empty
    clean: dict[str, Any] = {}
    if "scoring_spaces" in value:
        spaces = functions.scoring_spaces(value["scoring_spaces"], at(field, "scoring_spaces"))
        clean["scoring_spaces"] = {str(k): v for k, v in spaces.items()}
    if "insights" in value:
        clean["insights"] = functions.insight_positions(value["insights"], at(field, "insights"))
    if "end" in value:
        # VOY-C12: the number printed at the end-of-game symbol, confirmed by the group
        clean["end"] = whole(value["end"], at(field, "end"), 1, rules.POS_HI)
    return clean


#: scoring-space rows a form offers (a 52-space track has fewer scoring spaces than this)
SPACE_ROWS = 60


def spaces_from_rows(value: dict, field: str) -> dict:
    """A form's scoring spaces, one numbered row of position and GK each (`spaces.K.position`,
    `spaces.K.gk`), as the {position: GK} map.

    Each row is named by its number, so a row left half empty is refused on that row, never
    paired with another row's value; a row left empty is no space.
    """
    if "spaces" not in value:
        return value
    if "scoring_spaces" in value:
        raise RulesError(at(field, "scoring_spaces"), _("give the scoring spaces once: as a map, or as rows"))
    rest = {k: v for k, v in value.items() if k != "spaces"}
    rows_field = at(field, "spaces")
    rows = obj(value["spaces"], rows_field, optional=[str(k) for k in range(SPACE_ROWS)])
    spaces: dict[str, Any] = {}
    for key in sorted(rows, key=int):
        row_field = at(rows_field, key)
        row = obj(rows[key], row_field, optional=("position", "gk"))
        if not row:
            continue
        if "position" not in row:
            raise RulesError(at(row_field, "position"), _("type the position of this space too, or clear its GK"))
        if "gk" not in row:
            raise RulesError(at(row_field, "gk"), _("type the GK printed on this space too, or clear its position"))
        p = whole(row["position"], at(row_field, "position"), 0, rules.POS_HI)
        if str(p) in spaces:
            raise RulesError(at(row_field, "position"), _("position %(position)s is listed twice", position=p))
        spaces[str(p)] = whole(row["gk"], at(row_field, "gk"), 0, rules.POS_HI)
    if spaces:
        rest["scoring_spaces"] = spaces
    return rest


def check_grid(value: Any, field: str) -> list[list[int | None]]:
    """Check the puzzle grid: rows of the GK printed per cell, null where there is no space (B3)."""
    rows = listof(value, field, 1, GRID_MAX)
    clean = []
    for r, row in enumerate(rows):
        cells = listof(row, at(field, r), 1, GRID_MAX)
        clean.append([None if c is None else whole(c, at(at(field, r), i), 0, CELL_GK_HI) for i, c in enumerate(cells)])
    if not any(c is not None for row in clean for c in row):
        raise RulesError(field, _("must hold at least one cell with its GK"))
    return clean


def check_catalogue(value: Any, field: str) -> dict:
    """Check the optional card catalogue: number -> section, phases 2-4 multipliers, Recipes types (B4, B5)."""
    obj(value, field, optional=tuple(str(n) for n in range(rules.CARD_LO, rules.CARD_HI + 1)))
    clean = {}
    for key, card in value.items():
        path = at(field, key)
        obj(card, path, required=("section", "multipliers"), optional=("choices",))
        section = choice(card["section"], at(path, "section"), SECTIONS)
        mults = listof(card["multipliers"], at(path, "multipliers"), 3, 3)
        for i, m in enumerate(mults):
            functions.multiplier(m, at(at(path, "multipliers"), i), _("must be 0, 1, 2 or 4 (phases 2, 3 and 4)"))
        entry = {"section": section, "multipliers": list(mults)}
        if section == "recipes" and "choices" in card:
            entry["choices"] = functions.recipe_choices(card["choices"], at(path, "choices"))
        elif "choices" in card:
            raise RulesError(at(path, "choices"), _("only a Recipes card shows two knowledge types"))
        clean[key] = entry
    return clean


def _index(key: Any, field: str) -> int:
    if not (isinstance(key, str) and key.isdigit() and key.isascii() and int(key) < GRID_MAX):
        raise RulesError(field, _("rows and columns are numbered from 0 to %(hi)s", hi=GRID_MAX - 1))
    return int(key)


def _mapping(value: Any, field: str) -> dict:
    if not isinstance(value, dict):
        raise RulesError(field, "must be an object")
    return value


def from_form(data: dict) -> dict:
    """The profile page's fields as the profile document: no JSON for players (import/export files stay JSON).

    - `grid_cells.ROW.COLUMN`: a number field per cell, left empty where there is no space;
    - `solo_spaces.PART[]`: number fields, the empty ones left out; a part with none is left out;
    - `cards.N.section`, `cards.N.multipliers[]`, `cards.N.choices[]`: a card whose fields are all
      left empty is left out.
    """
    data = dict(data)
    if "grid_cells" in data:
        if "grid" in data:
            raise RulesError("grid", _("give the puzzle grid once"))
        cells = _mapping(data.pop("grid_cells"), "grid_cells")
        grid: dict[int, dict[int, Any]] = {}
        for r, row in cells.items():
            ri = _index(r, at("grid_cells", r))
            for c, gk in _mapping(row, at("grid_cells", r)).items():
                grid.setdefault(ri, {})[_index(c, at(at("grid_cells", r), c))] = gk
        if grid:
            width = max(c for row in grid.values() for c in row) + 1
            data["grid"] = [[grid.get(r, {}).get(c) for c in range(width)] for r in range(max(grid) + 1)]
    if isinstance(data.get("solo_spaces"), dict):
        data["solo_spaces"] = {k: v for k, v in data["solo_spaces"].items() if v != []}
    if isinstance(data.get("cards"), dict):
        data["cards"] = {k: v for k, v in data["cards"].items()
                         if not (isinstance(v, dict) and not v.get("section") and not v.get("multipliers") and not v.get("choices"))}
        for card in data["cards"].values():
            if isinstance(card, dict) and card.get("choices") == []:
                del card["choices"]
    return data


def validate_profile(data: Any) -> dict:
    """Check a Voynich box profile: only values printed on the components (RULES.md VOY-B)."""
    obj(data, "$", optional=("track", "grid", "grid_cells", "solo_spaces", "cards"))
    data = from_form(data)
    clean: dict[str, Any] = {}
    if "track" in data:
        clean["track"] = check_track(data["track"], "track")
    if "grid" in data:
        clean["grid"] = check_grid(data["grid"], "grid")
    if "solo_spaces" in data:
        obj(data["solo_spaces"], "solo_spaces", optional=tuple(SOLO_PARTS))
        clean["solo_spaces"] = {
            part: functions.check_present(nums, at("solo_spaces", part)) for part, nums in data["solo_spaces"].items()
        }
    if "cards" in data:
        clean["cards"] = check_catalogue(data["cards"], "cards")
    return clean


def effective_track(state: dict, profile: dict) -> dict:
    """Return the score track values: the table's entries over the box profile's."""
    track = dict(profile.get("track", {}))
    track.update(state.get("track") or {})
    return track


# --- the form's fields (templates/voynich/profile.html, and the table's track form) -------------------

#: how many fields a list of numbers offers: (empty ones after those filled, at least in all)
SPACE_FIELDS, INSIGHT_FIELDS, PART_FIELDS = (3, 8), (2, 6), (3, 8)
#: the puzzle grid's form: at least this many rows and columns, one empty more than those filled
GRID_LEAST = 6


def padded(values: list, spare: int, least: int, empty: Any = None) -> list:
    """The values a form's fields show, then `spare` empty fields to add more: at least `least` in all."""
    return list(values) + [empty] * (max(len(values) + spare, least) - len(values))


def _part(value: Any, kind: type) -> Any:
    """A part of a profile, or of a refused form as it came (any shape): itself if of `kind`, else empty."""
    return value if isinstance(value, kind) else kind()


def form(data: Any) -> dict:
    """What templates/voynich/profile.html shows: a saved profile's values or, after a refusal, the form's
    fields as they came (rows and cells, not the profile's shapes; any shape is shown, never trusted)."""
    pr = _part(data, dict)
    track = _part(pr.get("track"), dict)
    saved = list(_part(track.get("scoring_spaces"), dict).items())
    typed = _part(track.get("spaces"), dict)
    spare, least = SPACE_FIELDS
    spaces = padded(saved, spare, max(len(typed) + spare, least), (None, None))
    for k in range(len(spaces)):
        row = typed.get(str(k))
        if row and isinstance(row, dict):
            spaces[k] = (row.get("position"), row.get("gk"))
    grid = [_part(row, list) for row in _part(pr.get("grid"), list)]
    cells = pr.get("grid_cells")
    size = [min(max(n + 1, GRID_LEAST), GRID_MAX) for n in (len(grid), max(map(len, grid), default=0))]
    if isinstance(cells, dict):
        typed_cells = [[_part(cells.get(str(r)), dict).get(str(c)) for c in range(size[1])] for r in range(size[0])]
    else:
        typed_cells = [[grid[r][c] if r < len(grid) and c < len(grid[r]) else None for c in range(size[1])] for r in range(size[0])]
    solo = _part(pr.get("solo_spaces"), dict)
    catalogue = _part(pr.get("cards"), dict)
    phases = range(rules.STARTING_PHASE + 1, rules.LAST_PHASE + 1)  # B4: phases 2-4 score; the first gives none [V91]
    cards = []
    for n in range(rules.CARD_LO, rules.CARD_HI + 1):
        card = _part(catalogue.get(str(n)), dict)
        mults, choices = _part(card.get("multipliers"), list), _part(card.get("choices"), list)
        cards.append({"n": n, "section": card.get("section"),
                      "multipliers": [{"phase": ph, "value": mults[k] if k < len(mults) else None} for k, ph in enumerate(phases)],
                      "choices": padded(choices[:2], 0, 2)})
    return {
        "spaces": spaces, "insights": padded(_part(track.get("insights"), list), *INSIGHT_FIELDS), "end": track.get("end"),
        "end_hint": _("the rulebook says the %(nth)s space", nth=ordinal(rules.END_GK)),  # [V80]
        "grid": typed_cells,
        "parts": [{"key": key, "label": _(label), "numbers": padded(nums, *PART_FIELDS),
                   "said": ", ".join(str(n) for n in nums if n is not None)}
                  for key, label in SOLO_PARTS.items() for nums in [_part(solo.get(key), list)]],
        "cards": cards, "entered": len(catalogue),
        "phases_said": _("%(phases)s and %(last)s", phases=", ".join(map(str, phases[:-1])), last=phases[-1]),
        "sections": [(s, _(SECTION_WORDS[s])) for s in SECTIONS], "kinds": [(k, _(SECTION_WORDS[k])) for k in KNOWLEDGE],
        "multipliers": rules.MULTIPLIERS,
    }

