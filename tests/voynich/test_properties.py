"""Properties of the Voynich rules over many generated inputs (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.voynich import GAME, rules

numbers = st.lists(st.integers(1, 40), min_size=1, max_size=40, unique=True)


@given(priority=st.integers(1, 40), present=numbers)
def test_priority_scan_is_the_sorted_numbers_rotated_to_the_nearest_lower(priority, present):
    order = GAME.functions["priority_scan"].run({"priority": priority, "present": present})["order"]
    ordered = sorted(present)
    start = ordered.index(order[0])
    assert order == ordered[start:] + ordered[:start]
    lower = [n for n in present if n <= priority]
    # [V432] the priority number, else the nearest lower; none lower: the highest (VOY-C13)
    assert order[0] == (max(lower) if lower else max(present))


page = st.one_of(
    st.builds(lambda s, m: {"section": s, "multiplier": m}, st.sampled_from(rules.KNOWLEDGE), st.sampled_from(rules.MULTIPLIERS)),
    st.builds(lambda c, m: {"section": "recipes", "multiplier": m, "choices": c},
              st.lists(st.sampled_from(rules.KNOWLEDGE), min_size=2, max_size=2, unique=True), st.sampled_from(rules.MULTIPLIERS)),
)
player = st.fixed_dictionaries({
    "gk": st.integers(0, 80),
    "markers": st.fixed_dictionaries({k: st.integers(0, 80) for k in rules.KNOWLEDGE}),
    "research": st.lists(st.integers(0, 9), max_size=6),
    "pages": st.lists(page, max_size=10),
})
spaces = st.dictionaries(st.integers(0, 80).map(str), st.integers(0, 20), min_size=1, max_size=10)


@settings(max_examples=150)
@given(players=st.lists(player, min_size=1, max_size=4), track=spaces)
def test_score_breakdown_adds_up_and_ranks_consistently(players, track):
    for i, p in enumerate(players):
        p["name"] = f"P{i}"
    result = GAME.functions["score"].run({"track": {"scoring_spaces": track}, "players": players})
    best = max(r["total"] for r in result["players"])
    for r, p in zip(result["players"], players):
        assert sum(r["breakdown"].values()) == r["total"]
        assert r["breakdown"]["research"] == sum(p["research"]) // 2
        assert sum(d["points"] for d in r["pages_detail"]) == r["breakdown"]["pages"]
        for d, pg in zip(r["pages_detail"], p["pages"]):
            if pg["section"] == "recipes" and pg["multiplier"]:
                # the better of the two types
                other = [k for k in pg["choices"] if k != d["section"]][0]
                assert d["points"] >= rules.track_gk(p["markers"][other], {int(k): v for k, v in track.items()}) * pg["multiplier"]
    for name in result["winners"]:
        assert next(r for r in result["players"] if r["name"] == name)["total"] == best
        assert result["places"][name] == 1


@settings(max_examples=60)
@given(seed=st.integers(0, 2**31), turns=st.integers(0, 60), difficulty=st.sampled_from(rules.DIFFICULTIES))
def test_deck_never_reopens_the_open_spread(seed, turns, difficulty):
    cards = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}
    result = GAME.functions["solo_turns"].run({"cards": cards, "difficulty": difficulty, "turns": turns, "seed": seed})
    spread = None
    for turn in result["turns"]:
        assert turn["spread"] != spread  # [V389] never the spread already open
        assert 1 <= turn["phase"] <= 4
        spread = turn["spread"]
