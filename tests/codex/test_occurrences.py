"""Which occurrences the pattern count answers with (docs/codex.md, "Rules functions").

`patterns` and `manuscript` return, beside the count, the occurrences counted (indices in
`cells`, or in `cards`), and the objective counter numbers them on the grid. Where a layout
holds several largest sets of occurrences sharing no card [CN50], the count is the same
whichever is taken, but the answer and the numbers on the grid are not: these layouts pin
the set each function answers with, so that a change to the search (packing.py) that picks
another one is seen (scripts/mutation_equivalent.toml listed four such changes as harmless).
"""

import pytest

from companion.games.codex import functions


def cells(*triples):
    return [{"x": x, "y": y, "kingdom": k} for x, y, k in triples]


def anchored(layout, objective):
    """The `patterns` answer for these (x, y, kingdom) cells, each occurrence as its cells' places."""
    result = functions.patterns({"cells": cells(*layout), "objective": objective})
    assert all(sorted(o) == o for o in result["occurrences"])
    return result["count"], [[layout[i][:2] for i in o] for o in result["occurrences"]]


def column(ls):
    """A column of fungi with a plant below-right of each fungi but the top: `ls` L-shapes of
    card 91, each sharing its lower fungi with the next one down."""
    return [(0, -2 * i, "fungi") for i in range(ls + 1)] + [(1, -2 * i - 3, "plant") for i in range(ls)]


@pytest.mark.parametrize("ls, counted", [
    # 3 L-shapes in a chain: the two ends are the only largest set
    (3, [[(0, -4), (0, -6), (1, -7)], [(0, 0), (0, -2), (1, -3)]]),
    # 4: three largest sets ({1st, 3rd}, {1st, 4th}, {2nd, 4th} from the bottom); the answer
    # is the bottom one and the one two above it
    (4, [[(0, -6), (0, -8), (1, -9)], [(0, -2), (0, -4), (1, -5)]]),
    (6, [[(0, -10), (0, -12), (1, -13)], [(0, -6), (0, -8), (1, -9)], [(0, -2), (0, -4), (1, -5)]]),
])
def test_a_column_of_l_shapes_counts_these_occurrences(ls, counted):
    assert anchored(column(ls), 91) == (len(counted), counted)


@pytest.mark.parametrize("length, counted", [
    (6, [[(0, 0), (1, 1), (2, 2)], [(3, 3), (4, 4), (5, 5)]]),  # the only largest set
    # 7 cards: {1st, 4th}, {1st, 5th} and {2nd, 5th} of the five diagonals share no card
    (7, [[(0, 0), (1, 1), (2, 2)], [(3, 3), (4, 4), (5, 5)]]),
    # 8 cards: six diagonals, six largest sets; the answer leaves the line's first two cards out
    (8, [[(2, 2), (3, 3), (4, 4)], [(5, 5), (6, 6), (7, 7)]]),
])
def test_a_diagonal_line_counts_these_occurrences(length, counted):
    assert anchored([(i, i, "fungi") for i in range(length)], 87) == (len(counted), counted)


@pytest.mark.parametrize("length, counted", [
    (7, [[1, 2, 3], [4, 5, 6]]),
    (8, [[3, 4, 5], [6, 7, 8]]),
])
def test_a_manuscript_names_the_cards_of_these_occurrences(length, counted):
    # the starter at (0, 0), then fungi cards 1.. on their backs up the diagonal (the match is on
    # a card's kingdom, whichever side it shows): `occurrences` holds indices in `cards`
    cards = [{"id": 81, "side": "front", "x": 0, "y": 0}]
    cards += [{"id": i, "side": "back", "x": i, "y": i} for i in range(1, length + 1)]
    result = functions.manuscript({"cards": cards, "objectives": [87]})
    assert result["occurrences"] == {"87": counted}
    assert result["objectives"] == {"87": 2 * len(counted)}  # card 87: 2 points per diagonal
