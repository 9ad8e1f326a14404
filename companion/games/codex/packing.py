"""Maximum set packing: the largest number of occurrences that share no card.

[CN50] "each card in the play area is used only once per objective card", so a pattern
objective scores the largest set of pairwise card-disjoint occurrences (CDX-C5). A greedy
scan can miss it (a line of cards where the first match found blocks two others), so this
is an exact search: the occurrences are the vertices of a conflict graph (an edge where two
share a card) and we look for a maximum independent set by branch and bound, with
- connected components solved apart (a manuscript's occurrences fall into many small ones),
- a vertex with at most one conflict always taken (some maximum packing holds it),
- the "leave it out" branch skipped once "take it" reaches the upper bound
  min(occurrences left, cards they cover // cards per occurrence),
- results remembered per remaining set.
Sets are bitmasks, so a branch costs a few integer operations.
"""

from __future__ import annotations

from typing import Hashable, Sequence


def max_disjoint(sets: Sequence[Sequence[Hashable]]) -> list[int]:
    """Return the indices (ascending) of a largest family of pairwise disjoint sets."""
    n = len(sets)
    if n == 0:
        return []
    element_bit: dict[Hashable, int] = {}
    members: list[int] = []  # per set: bitmask of its elements
    holders: dict[Hashable, int] = {}  # element -> bitmask of the sets holding it
    for i, s in enumerate(sets):
        mask = 0
        for e in s:
            if e not in element_bit:
                element_bit[e] = 1 << len(element_bit)
            mask |= element_bit[e]
            holders[e] = holders.get(e, 0) | (1 << i)
        members.append(mask)
    adj = []
    for i, s in enumerate(sets):
        m = 0
        for e in s:
            m |= holders[e]
        adj.append(m & ~(1 << i))
    smallest = max(1, min(len(set(s)) for s in sets))
    memo: dict[int, tuple[int, int]] = {}

    def bound(p: int) -> int:
        covered = 0
        q = p
        while q:
            v = q & -q
            q ^= v
            covered |= members[v.bit_length() - 1]
        return min(p.bit_count(), covered.bit_count() // smallest)

    def solve(p: int) -> tuple[int, int]:
        """Return (size, chosen bitmask) of a maximum independent set within p."""
        if not p:
            return 0, 0
        hit = memo.get(p)
        if hit is not None:
            return hit
        # the connected component of p's lowest vertex
        comp = frontier = p & -p
        while frontier:
            v = frontier & -frontier
            frontier ^= v
            new = adj[v.bit_length() - 1] & p & ~comp
            comp |= new
            frontier |= new
        if comp != p:
            a_size, a_set = solve(comp)
            b_size, b_set = solve(p & ~comp)
            result = (a_size + b_size, a_set | b_set)
        else:
            result = None
            best_i, best_deg = -1, -1
            q = p
            while q:
                v = q & -q
                q ^= v
                i = v.bit_length() - 1
                deg = (adj[i] & p).bit_count()
                if deg <= 1:  # taking it never loses: swap it for its one neighbour
                    size, chosen = solve(p & ~(adj[i] | v))
                    result = (size + 1, chosen | v)
                    break
                if deg > best_deg:
                    best_i, best_deg = i, deg
            if result is None:
                v = 1 << best_i
                size, chosen = solve(p & ~(adj[best_i] | v))
                take = (size + 1, chosen | v)
                if take[0] >= bound(p):
                    result = take
                else:
                    leave = solve(p & ~v)
                    result = take if take[0] >= leave[0] else leave
        memo[p] = result
        return result

    _, chosen = solve((1 << n) - 1)
    return [i for i in range(n) if chosen >> i & 1]
