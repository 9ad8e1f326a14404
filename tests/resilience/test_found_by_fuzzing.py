"""Failures the fuzzers found, kept as plain examples so CI checks them every run.

Each was found by a randomized hunt (FUZZ_SCALE=10), which CI's derandomized examples do
not repeat.
"""

from __future__ import annotations


import pytest
from werkzeug.datastructures import MultiDict

from companion import games
from tests.conftest import count_rows



@pytest.mark.parametrize("game_key", list(games.registry()))
@pytest.mark.parametrize("form", [
    [("options", "1")],  # was a 500: '**"1"', a string spread as the options
    [("options:json", "[1]")],
    [("players", "Anna")],  # was read letter by letter as names
    [("players:json", '{"a": 1}')],
], ids=["options-text", "options-list", "players-text", "players-object"])
def test_start_form_refuses_options_or_players_not_sent_as_their_fields(app, client, game_key, form):
    response = client.post(f"/new/{game_key}", data=MultiDict(form))
    assert response.status_code == 400
    assert count_rows(app, "tables") == 0


@pytest.mark.parametrize("game_key", list(games.registry()))  # gutenberg's was a 500: profile.html, reward_track
@pytest.mark.parametrize("form", [{"profile_name": "Box", "x": "1"}, {"profile_name": "", "type": "x"}])
def test_profile_form_with_a_stray_field_answers_400_beside_it(app, client, game_key, form):
    response = client.post(f"/profiles/new/{game_key}", data=form)
    assert response.status_code == 400
    assert count_rows(app, "profiles") == 0
