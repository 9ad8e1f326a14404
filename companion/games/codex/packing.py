"""Maximum set packing: the largest number of occurrences that share no card.

[CN50] "each card in the play area is used only once per objective card", so a pattern
objective scores the largest set of pairwise card-disjoint occurrences (CDX-C5). A scan
that keeps the first occurrence it meets can block two others, so this is an exact search.

The occurrences are the vertices of a conflict graph (an edge where two share a card) and
we look for a maximum independent set by branch and bound:
- connected components are solved apart (a manuscript's occurrences fall into small ones);
- a vertex with at most one conflict is always taken (some maximum packing holds it);
- otherwise branch on the vertex with most conflicts: take it, or leave it out;
- a branch is cut when its upper bound cannot beat what is needed: the occurrences that
  hold one same card form a clique, so covering the remaining ones by such cliques bounds
  the answer (at most one occurrence per clique);
- exact results are remembered per remaining set.
Sets are bitmasks, so a step costs a few integer operations. For the eight real pattern
cards, occurrences only overlap along one diagonal line (a diagonal overlaps the next two)
or one column (an L-shape overlaps the next one), so the components are short chains that
the remembered results make cheap; the benchmark also stresses arbitrary 3-card sets.
"""

from __future__ import annotations

from typing import Hashable, Sequence


def max_disjoint(sets: Sequence[Sequence[Hashable]]) -> list[int]:
    """Return the indices (ascending) of a largest family of pairwise disjoint sets."""
    n = len(sets)
    holders: dict[Hashable, int] = {}  # element -> bitmask of the sets holding it
    for i, s in enumerate(sets):
        for e in s:
            holders[e] = holders.get(e, 0) | (1 << i)
    adj = []
    for i, s in enumerate(sets):
        m = 0
        for e in s:
            m |= holders[e]
        adj.append(m & ~(1 << i))
    # per set: the cliques it belongs to (the sets sharing each of its elements)
    cliques_of = [[holders[e] for e in set(s)] or [1 << i] for i, s in enumerate(sets)]
    exact: dict[int, tuple[int, int]] = {}

    def bound(p: int) -> int:
        """Cover p by cliques, each the largest one through its lowest vertex."""
        count = 0
        while p:
            i = (p & -p).bit_length() - 1
            p &= ~max((c & p for c in cliques_of[i]), key=int.bit_count)
            count += 1
        return count

    def solve(p: int, need: int) -> tuple[int, int]:
        """Return (size, chosen bitmask) of a maximum independent set within p.

        The answer is exact whenever its size reaches `need`; below that it only says
        "fewer than need" (the branches that could not reach need were cut).
        """
        if not p:
            return 0, 0
        hit = exact.get(p)
        if hit is not None:
            return hit
        if need > 1 and bound(p) < need:
            return -1, 0
        # the connected component of p's lowest vertex
        comp = frontier = p & -p
        while frontier:
            v = frontier & -frontier
            frontier ^= v
            new = adj[v.bit_length() - 1] & p & ~comp
            comp |= new
            frontier |= new
        if comp != p:
            rest = p & ~comp
            a_size, a_set = solve(comp, need - bound(rest))
            if a_size < 0:
                result = (-1, 0)
            else:
                b_size, b_set = solve(rest, need - a_size)
                result = (a_size + b_size, a_set | b_set) if b_size >= 0 else (-1, 0)
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
                    size, chosen = solve(p & ~(adj[i] | v), need - 1)
                    result = (size + 1, chosen | v) if size >= 0 else (-1, 0)
                    break
                if deg > best_deg:
                    best_i, best_deg = i, deg
            if result is None:
                v = 1 << best_i
                size, chosen = solve(p & ~(adj[best_i] | v), need - 1)
                take = (size + 1, chosen | v) if size >= 0 else (-1, 0)
                leave = solve(p & ~v, max(need, take[0] + 1))
                result = take if take[0] >= leave[0] else leave
        if result[0] >= need:
            exact[p] = result
        return result

    _, chosen = solve((1 << n) - 1, 0)
    return [i for i in range(n) if chosen >> i & 1]
