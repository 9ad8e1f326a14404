"""The one form-naming convention that turns every HTML form into the API's document."""

import pytest

from companion.forms import decode
from companion.games.validation import RulesError


def test_nesting_types_and_lists():
    doc = decode([
        ("type", "fame"), ("expected_version:int", "3"), ("data.player:int", "1"), ("data.delta:json", "-2"),
        ("data.solo:bool", "on"), ("data.choices[]", "baths"), ("data.choices[]", "writings"),
        ("data.counts[]:int", "4"), ("data.empty:int", ""), ("screen", "end"),
    ])
    assert doc == {"type": "fame", "expected_version": 3,
                   "data": {"player": 1, "delta": -2, "solo": True, "choices": ["baths", "writings"], "counts": [4]}}


@pytest.mark.parametrize("items, field", [
    ([("data.player:int", "x")], "data.player"),
    ([("data.card:json", "{oops")], "data.card"),
    ([("a", "1"), ("a", "2")], "a"),
    ([("a", "1"), ("a.b", "2")], "a.b"),
    ([("data..x", "1")], "data..x"),
    ([("x:float", "1")], "x"),
])
def test_bad_fields_name_themselves(items, field):
    with pytest.raises(RulesError) as caught:
        decode(items)
    assert caught.value.field == field
