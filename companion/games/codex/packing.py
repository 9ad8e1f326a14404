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
    holders: dict[Hashable, int] = {}  # element -> bitmask of the sets holding it
    for i, s in enumerate(sets):
        for e in s:
            holders[e] = holders.get(e, 0) | (1 << i)
    adj = []  # per set: the other sets it shares an element with
    for i, s in enumerate(sets):
        m = 0
        for e in s:
            m |= holders[e]
        adj.append(m & ~(1 << i))
    # per set: the cliques it belongs to (the sets sharing each of its elements)
    cliques_of = [[holders[e] for e in set(s)] or [1 << i] for i, s in enumerate(sets)]
    exact: dict[int, int] = {}

    def bound(p: int) -> int:
        """Cover p by cliques, each the largest one through its lowest vertex."""
        count = 0
        while p:
            i = (p & -p).bit_length() - 1
            p &= ~max((c & p for c in cliques_of[i]), key=int.bit_count)
            count += 1
        return count

    def solve(p: int, need: int) -> int | None:
        """Return a maximum independent set within p, or None when it has fewer than `need` sets.

        Every set returned is a maximum one (so it is remembered whatever `need` was); None
        only says that no independent set within p reaches `need`.
        """
        if not p:
            return 0
        if p in exact:
            return exact[p]
        if need > 1 and bound(p) < need:  # (a non-empty p always has a bound of 1 or more)
            return None
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
            # the rest holds at most bound(rest) sets, so the component must give the others
            part = solve(comp, need - bound(rest))
            other = None if part is None else solve(rest, need - part.bit_count())
            result = None if other is None else part | other
        else:
            degree = {}
            for i in range(p.bit_length()):
                if p >> i & 1:
                    degree[i] = (adj[i] & p).bit_count()
            leaf = next((i for i, d in degree.items() if d <= 1), None)
            # a set with at most one conflict is in some maximum packing: swap it for its neighbour
            i = leaf if leaf is not None else max(degree, key=degree.get)
            v = 1 << i
            rest = solve(p & ~(adj[i] | v), need - 1)
            take = None if rest is None else rest | v
            if leaf is not None:
                result = take
            else:
                if take is not None and take.bit_count() < need:
                    take = None  # a maximum below need says no more than None would
                # leaving the set out only matters if it gives more than taking it
                leave = solve(p & ~v, need if take is None else take.bit_count() + 1)
                result = max((r for r in (take, leave) if r is not None), key=int.bit_count, default=None)
        if result is not None:
            exact[p] = result
        return result

    chosen = solve((1 << len(sets)) - 1, 0)
    return [i for i in range(len(sets)) if chosen >> i & 1]
