// 004 §3's trees and coordinates. See trees.h.
#include "firmware/paper004/trees.h"

namespace meshmp {
namespace {
int sign(int x) { return x > 0 ? 1 : -1; }
}  // namespace

// The root-relative coordinate of v in ring dimension d: -size/2 < x <= size/2.
int relative(const Topology& t, int v, int root, int d) {
  const int size = t.dimension(d).size;
  int x = ((t.coordinate(v, d) - t.coordinate(root, d)) % size + size) % size;
  return x > size / 2 ? x - size : x;
}
int at_relative(const Topology& t, int root, int x, int y) {
  std::vector<int> c = t.coordinates(root);
  c[0] = ((c[0] + x) % t.dimension(0).size + t.dimension(0).size) % t.dimension(0).size;
  if (t.num_dimensions() > 1) c[1] = ((c[1] + y) % t.dimension(1).size + t.dimension(1).size) % t.dimension(1).size;
  return t.node_at(c);
}


// A ring's tree: one way (+) round the whole ring, or both ways to the farthest node.
Children ring_tree(const Topology& t, int root, bool both) {
  const int k = t.num_nodes();
  Children children(k);
  const int plus = both ? k / 2 : k - 1, minus = both ? (k - 1) / 2 : 0;
  for (int h = 0; h < plus; ++h) children[at_relative(t, root, h, 0)].push_back(at_relative(t, root, h + 1, 0));
  for (int h = 0; h < minus; ++h) children[at_relative(t, root, -h, 0)].push_back(at_relative(t, root, -h - 1, 0));
  return children;
}

// The grid's tree of (3.18) with `column_first`: the root's column (x = 0) outward along y, its nodes into
// their rows; or, transposed, the root's row first. `skip_axis`: leave out the other axis's nodes
// (3.19's flows).
Children grid_tree(const Topology& t, int root, bool column_first, bool skip_axis) {
  Children children(t.num_nodes());
  for (int v = 0; v < t.num_nodes(); ++v) {
    if (v == root) continue;
    const int x = relative(t, v, root, 0), y = relative(t, v, root, 1);
    int px = x, py = y;
    if (column_first) {
      if (x != 0) px -= sign(x);
      else py -= sign(y);
      if (skip_axis && y == 0) continue;  // the root's row: reached by the remedy
    } else {
      if (y != 0) py -= sign(y);
      else px -= sign(x);
      if (skip_axis && x == 0) continue;  // the root's column
    }
    children[at_relative(t, root, px, py)].push_back(v);
  }
  return children;
}

// The column (y) or row (x) through `from`, both ways outward.
Children grid_line(const Topology& t, int from, int d) {
  Children children(t.num_nodes());
  const int size = t.dimension(d).size;
  const int plus = size / 2, minus = (size - 1) / 2;
  auto step = [&](int h) { return d == 0 ? at_relative(t, from, h, 0) : at_relative(t, from, 0, h); };
  for (int h = 0; h < plus; ++h) children[step(h)].push_back(step(h + 1));
  for (int h = 0; h < minus; ++h) children[step(-h)].push_back(step(-h - 1));
  return children;
}

Children hypercube_tree(const Topology& t, int root) {
  const int n = t.num_dimensions();
  Children children(t.num_nodes());
  for (int r = 0; r < t.num_nodes(); ++r) {
    int high = -1;
    for (int j = 0; j < n; ++j)
      if ((r >> j) & 1) high = j;
    for (int j = high + 1; j < n; ++j) children[r ^ root].push_back((r | (1 << j)) ^ root);
  }
  return children;
}

}  // namespace meshmp
