"""Follow a table a change at a time and check its live region drawn in parts (companion/web/region.py).

`follow` applies events one at a time and, after each, draws the region the way the app does
(from the version before, only the parts whose inputs changed) and again whole with nothing
kept. The two must be the same text: a part whose inputs miss something its template reads
would be taken as it was, and differ here. Each step says what was drawn and what a phone one
version behind is sent, for the tests that bound them.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion import tables
from companion.games.validation import RulesError
from companion.web import region
from companion.web.connection import get_db
from tests.examples import create_doc


@dataclass
class Step:
    """One change, on one (screen, language): the parts drawn, the parts sent, the bytes sent."""

    event: dict
    screen: str | None
    lang: str
    drawn: tuple[str, ...]
    sent: list[str]
    sent_bytes: int
    whole: int  # the whole region's length, for comparison


def create(client, game_key: str, players: list[str], options: dict | None = None) -> tuple[str, str]:
    """A table made through the API: (id, secret)."""
    doc = create_doc(game_key, players, **(options or {}))  # the API takes a table's options beside its players
    made = client.post("/api/v1/tables", json=doc)
    assert made.status_code == 201, made.get_data(as_text=True)
    body = made.get_json()
    return body["table"], body["token"]


def follow(app, game_key: str, players: list[str], events: list[dict], options: dict | None = None,
           screens: tuple = (None,), langs: tuple = ("en",), refused_ok: bool = False) -> list[Step]:
    """Apply `events` ({"type", "data"}; "undo" undoes) one at a time; after each, check every
    (screen, language)'s region drawn in parts against one drawn whole. Return the steps."""
    table_id, secret = create(app.test_client(), game_key, players, options)
    steps: list[Step] = []
    with app.app_context():
        db = get_db()
        kept: dict = {}
        table = tables.authorize(db, table_id, secret)
        for screen in screens:
            for lang in langs:
                key = table.rules.screen_of(screen, table.names)
                kept[(screen, lang)] = region.draw(app, table, key, lang, None, region.context_of(db, table, key))
        for event in events:
            try:
                if event.get("type") == "undo":
                    table = tables.undo(db, table_id, {"expected_version": table.version}, None, secret=secret)
                else:
                    table = tables.append(db, table_id, {**event, "expected_version": table.version}, None, secret=secret)
            except RulesError as err:
                assert refused_ok, f"{event} refused: {err}"
                continue
            for screen in screens:
                for lang in langs:
                    key = table.rules.screen_of(screen, table.names)
                    before = kept[(screen, lang)]
                    now = region.draw(app, table, key, lang, before, region.context_of(db, table, key))
                    whole = region.draw(app, table, key, lang, None, region.context_of(db, table, key))
                    assert now.html == whole.html, f"after {event} on screen {screen!r} in {lang}: a part drawn from a stale input"
                    assert not now.twice and not whole.twice, f"ids used twice in one region: {whole.twice}"
                    assert now.fingerprint == whole.fingerprint
                    sent = now.changed_since(before.fingerprint)
                    steps.append(Step(event, screen, lang, now.drawn, sent, len(now.since(before.fingerprint)), len(whole.html)))
                    kept[(screen, lang)] = now
    return steps
