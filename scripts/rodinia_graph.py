#!/usr/bin/env python3
"""Write a random graph in Rodinia's BFS text format (the input `warpsim run bfs --input FILE` reads).

The degrees follow the recipe of Rodinia's own generator for graph1MW_6: every node draws 2 to 4 neighbours
uniformly at random and each edge is stored in both directions, so the mean degree is about 6 and no node has
many more than that - unlike the bundled bfs inputs, whose degrees are skewed (docs/workloads.md).  Used by the
ablation "bfs on a uniform-degree graph" in docs/studies.md.

    python3 scripts/rodinia_graph.py NODES OUT.txt [--seed S]
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nodes", type=int, help="number of nodes (at least 2)")
    ap.add_argument("out", help="output file")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--min-edges", type=int, default=2, help="fewest neighbours a node draws (default 2)")
    ap.add_argument("--max-edges", type=int, default=4, help="most neighbours a node draws (default 4)")
    a = ap.parse_args()
    if a.nodes < 2 or a.min_edges < 1 or a.max_edges < a.min_edges:
        sys.exit("rodinia_graph.py: need nodes >= 2 and 1 <= --min-edges <= --max-edges")
    rng = random.Random(a.seed)
    adj = [[] for _ in range(a.nodes)]
    for u in range(a.nodes):
        for _ in range(rng.randint(a.min_edges, a.max_edges)):
            v = rng.randrange(a.nodes)
            adj[u].append(v)
            adj[v].append(u)
    with open(a.out, "w") as f:
        f.write(f"{a.nodes}\n")
        start = 0
        for nb in adj:
            f.write(f"{start} {len(nb)}\n")
            start += len(nb)
        f.write("\n0\n\n")   # the source node
        f.write(f"{start}\n")
        for nb in adj:
            for v in nb:
                f.write(f"{v} 1\n")
    print(f"{a.out}: {a.nodes} nodes, {start} edge entries, mean degree {start / a.nodes:.2f}, "
          f"largest {max(len(nb) for nb in adj)}")


if __name__ == "__main__":
    main()
