"""A finished table's result card (issue 42, "a link that stays"): what the table page shows first
once the game is over, on every phone, at every later visit of the table's own link.

`outcome` is read by the live region (region.context_of), so it is drawn once per version and
language and pushed to every phone like the rest: it reads the table alone, never a request.
Whether the host deleted the play (`deleted`) is not in the region: deleting a play does not
change the table's version, so the page says it around the region, drawn at each visit.
"""

from __future__ import annotations

from .. import result_image, results
from ..wording import breakdown_label

def outcome(table) -> dict | None:
    """The result card of a finished table, in the language spoken; None before the end.

    Every value is plain (str, int, list, dict), so that the card's part key (region.py) holds
    all its template reads: the ranked players with their breakdown in words, the verdict, the
    text to share, and the addresses of the image, the BG Stats file, BG Stats and the record.
    """
    if not table.finished:
        return None
    try:
        doc = results.result(table)
    except results.NotOver:
        return None
    ranked = []
    for p in sorted(doc["players"], key=lambda p: p["place"]):
        ranked.append({"name": p["name"], "place": p["place"], "total": p["total"],
                       "extra": table.rules.extra_words(p),
                       "parts": [[key, breakdown_label(table.rules, key), value] for key, value in p["breakdown"].items()]})
    base = "/t/" + table.id
    return {
        "bgstats_url": doc["bgstats_url"],
        "text": results.share_text(table, doc),
        "verdict": results.verdict(doc),
        "players": ranked,
        "record": "/plays/" + table.id,
        # the addresses issue 42 fixed for every helper (the image's and the file's routes are theirs),
        # the image's with the table's version: a phone keeps it for good (web/images.py), and any
        # change (a correction, an undo, a rename) is a new address, never the picture it holds
        "image": f"{base}/result.png?v={table.version}",
        "image_dark": f"{base}/result.png?v={table.version}&theme=dark",
        "file": base + "/play.bgsplay",
        # the name the image is saved under (the game and the day, no player's name), as its route names it
        "download": result_image.file_name(table),
    }


def deleted(db, table) -> bool:
    """True when the host deleted this finished table's play from the archive (results.delete)."""
    return bool(table.finished) and results.is_deleted(db, table.id)
