#!/usr/bin/python3
"""Heat map of the links' utilisation of one `meshmp traffic` load (--link-heatmap): the flits per cycle
each link between two routers carried during the measurement window. A 2-D mesh or torus is drawn as
itself, each node at its (x, y) and each directed link an arrow beside the one going back (a torus's
wrap-around link a short stub at the edge); any other topology as a source x destination matrix.

Usage: plot_link_heatmap.py LINKS.csv OUT.png NODES plane|matrix TITLE
LINKS.csv: source,destination,port,flits,utilisation,source_x,source_y,destination_x,destination_y,wraps
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import cm, colors  # noqa: E402


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def draw_plane(ax, links, mappable):
    """Each link an arrow from its source towards its destination, shifted to its right so the two
    directions of a pair of nodes lie side by side; a wrap-around link a stub leaving the edge."""
    xs, ys = set(), set()
    for link in links:
        sx, sy = int(link["source_x"]), int(link["source_y"])
        dx, dy = int(link["destination_x"]), int(link["destination_y"])
        xs.update((sx, dx))
        ys.update((sy, dy))
        ux, uy = dx - sx, dy - sy
        ux, uy = (ux > 0) - (ux < 0), (uy > 0) - (uy < 0)
        wraps = link["wraps"] == "1"
        if wraps:  # it leaves the edge, away from the node it reaches
            ux, uy = -ux, -uy
        ox, oy = 0.09 * uy, -0.09 * ux  # to the right of the direction
        start, end = (0.18, 0.42) if wraps else (0.18, 0.82)
        color = mappable.to_rgba(float(link["utilisation"]))
        ax.annotate("", xy=(sx + end * ux + ox, sy + end * uy + oy), xytext=(sx + start * ux + ox, sy + start * uy + oy),
                    arrowprops=dict(arrowstyle="-|>", color=color, lw=2.2, shrinkA=0, shrinkB=0, mutation_scale=9))
    ax.scatter([x for x in xs for _ in ys], [y for _ in xs for y in ys], s=60, color="0.35", zorder=3)
    ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
    ax.set_ylim(min(ys) - 0.6, max(ys) + 0.6)
    ax.set_aspect("equal")
    ax.set_xticks(sorted(xs))
    ax.set_yticks(sorted(ys))
    ax.set_xlabel("x (dimension 0)")
    ax.set_ylabel("y (dimension 1)")


def draw_matrix(ax, links, nodes, mappable):
    """The utilisation of the link from each source (row) to each destination (column); no link: blank."""
    grid = [[math.nan] * nodes for _ in range(nodes)]
    for link in links:
        grid[int(link["source"])][int(link["destination"])] = float(link["utilisation"])
    cmap = mappable.get_cmap().copy()
    cmap.set_bad("0.93")
    ax.imshow(grid, cmap=cmap, norm=mappable.norm, interpolation="nearest", origin="upper")
    ax.set_xlabel("destination node")
    ax.set_ylabel("source node")


def main():
    links_file, out, nodes, layout, title = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    links = read(links_file)
    largest = max([float(link["utilisation"]) for link in links] + [0.0])
    mappable = cm.ScalarMappable(norm=colors.Normalize(0, largest if largest > 0 else 1), cmap="viridis")
    mappable.set_array([])
    side = 7 if layout == "plane" else 6.5
    fig, ax = plt.subplots(figsize=(side, side * 0.85))
    if layout == "plane":
        draw_plane(ax, links, mappable)
    else:
        draw_matrix(ax, links, nodes, mappable)
    fig.colorbar(mappable, ax=ax, label="link utilisation, flits/cycle in the measurement window")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
