"""Properties of the suspicion track that must hold for any board layout and any moves."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.galileo import rules
from companion.games.galileo.functions import run_suspicion


@st.composite
def layouts(draw):
    length = draw(st.integers(min_value=6, max_value=40))
    stake = draw(st.integers(min_value=1, max_value=length - 2))
    inner = st.integers(min_value=1, max_value=stake)
    penance = sorted(draw(st.lists(inner, min_size=3, max_size=3)))
    return {"length": length, "penance": penance, "prison": draw(inner), "stake": stake}


@settings(max_examples=300, deadline=None)
@given(layouts(), st.lists(st.integers(min_value=-12, max_value=12), max_size=25), st.sampled_from(rules.OVERSHOOT))
def test_any_sequence_of_moves_keeps_a_consistent_state(track, deltas, overshoot):
    state = rules.new_suspicion()
    for delta in deltas:
        before = state
        # the contract function validates its input: every state it returns is a valid input again
        result = run_suspicion({"track": track, "state": state, "delta": delta, "stake_overshoot": overshoot})
        state, events = result["state"], result["events"]
        assert 0 <= state["position"] < track["length"]
        # cards are never given back, and each is gained at most once
        assert all(b <= a for b, a in zip(before["penance_taken"], state["penance_taken"]))
        gained = [e for e in events if e.startswith("penance_")]
        assert len(gained) == len(set(gained)) == sum(state["penance_taken"]) - sum(before["penance_taken"])
        # the Stake is for ever, and after it nothing triggers
        if before["at_stake"]:
            assert state["at_stake"] and events == []
        if "stake" in events:
            assert events[-1] == "stake" and state["at_stake"] and not state["arrested"]
        # arrest and release alternate with the Prison icon
        if not state["at_stake"]:
            assert state["arrested"] == (state["position"] > track["prison"])
        assert not ("arrested" in events and "released" in events)
        assert rules.consistency_problem(track, state) is None


@settings(max_examples=200, deadline=None)
@given(layouts(), st.permutations(range(3)))
def test_penance_icons_out_of_their_cards_order_are_refused_at_the_first_one_out(track, order):
    # [GT99][GT158] icon I gives card I, then II, then III: a layout whose icons go back is refused,
    # naming the first icon before the one ahead of it; one in order (ties in a gap too) is taken
    from companion.games.galileo.functions import track as check_track
    from companion.games.validation import RulesError

    penance = [track["penance"][i] for i in order]
    layout = dict(track, penance=penance)
    back = [i for i in (1, 2) if penance[i] < penance[i - 1]]
    if not back:
        assert check_track(layout, "track", need_length=True)["penance"] == penance
        return
    try:
        check_track(layout, "track", need_length=True)
    except RulesError as err:
        assert err.field == f"track.penance[{back[0]}]"
    else:
        raise AssertionError(f"{penance} taken")
