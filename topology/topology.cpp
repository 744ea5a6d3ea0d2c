// Cartesian-product network arithmetic (002 §2, §3.1). See topology.h.
#include "topology/topology.h"

#include <algorithm>
#include <sstream>

#include "topology/config_error.h"

namespace meshmp {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!text.empty() && text.back() == sep) parts.push_back("");
  return parts;
}

// A run of decimal digits as a number, or -1 when it is empty or holds anything else; a value above
// `max` gives max + 1 (however many digits it has).
std::int64_t parse_digits(const std::string& text, std::int64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return -1;
  std::int64_t value = 0;
  for (char c : text) {
    value = value * 10 + (c - '0');
    if (value > max) return max + 1;
  }
  return value;
}

int parse_size(const std::string& text, const std::string& field, const std::string& spec) {
  const std::string range = "every dimension has 2.." + std::to_string(Topology::kMaxNodes) + " nodes";
  const std::int64_t size = parse_digits(text, Topology::kMaxNodes);
  if (size < 0) throw ConfigError(field, spec, "'" + echo(text) + "' is not a dimension size (a whole number); " + range);
  if (size < 2) throw ConfigError(field, spec, "every dimension needs at least 2 nodes, got " + echo(text) + "; " + range);
  if (size > Topology::kMaxNodes)
    throw ConfigError(field, spec, "the dimension size " + echo(text) + " is out of range: " + range);
  return static_cast<int>(size);
}

const char* kTopologyRule =
    "expected mesh:AxB[x...], torus:AxB[x...], ring:N, hypercube:N, ghc:AxB[x...], "
    "product:path4xring6xcomplete3, bus:K, shared-memory:K or omega:K";

// 004 §2's shared-resource machines: K nodes on one complete dimension, joined by the fabric.
Topology parse_fabric(const FabricSpelling& fabric, const std::string& rest, const std::string& spec,
                      const std::string& field) {
  const std::string range = "a " + fabric.name + " machine has 2.." + std::to_string(Topology::kMaxFabricNodes) +
                            " nodes" + (fabric.nodes_power_of_two ? ", a power of two (" + fabric.power_of_two_reason + ")" : "");
  const std::int64_t k = parse_digits(rest, Topology::kMaxFabricNodes);
  if (k < 0) throw ConfigError(field, spec, "the node count is not a whole number; " + range);
  if (k < 2 || k > Topology::kMaxFabricNodes || (fabric.nodes_power_of_two && (k & (k - 1)) != 0))
    throw ConfigError(field, spec, range + ": " + echo(rest) + " is not");
  return Topology({Dimension{DimensionKind::Complete, static_cast<int>(k)}}, spec, fabric.name);
}

// The fabrics' spellings registered so far.
std::vector<FabricSpelling>& fabric_spellings() {
  static std::vector<FabricSpelling> spellings;
  return spellings;
}

const FabricSpelling* fabric_spelling(const std::string& spec) {
  const std::string kind = spec.substr(0, spec.find(':'));
  for (const FabricSpelling& spelling : fabric_spellings())
    if (spelling.name == kind) return &spelling;
  return nullptr;
}

}  // namespace

Topology Topology::parse(const std::string& spec, const std::string& field) {
  if (const FabricSpelling* fabric = fabric_spelling(spec))
    return parse_fabric(*fabric, spec.substr(spec.find(':') + 1), spec, field);
  std::vector<Dimension> dims = parse_dimensions(spec, field);
  const std::int64_t nodes = count_nodes(dims);
  if (nodes > kMaxNodes)
    throw ConfigError(field, spec, "has " + std::to_string(nodes) + " nodes; at most " + std::to_string(kMaxNodes) +
                                       " nodes are supported (node numbers are 16 bits in a head flit)");
  return Topology(std::move(dims), spec);
}

std::int64_t Topology::count_nodes(const std::vector<Dimension>& dims) {
  std::int64_t nodes = 1;
  for (const auto& d : dims) nodes = std::min<std::int64_t>(nodes * d.size, std::int64_t{1} << 40);
  return nodes;
}

std::int64_t Topology::nodes_in(const std::string& spec) {
  if (fabric_spelling(spec)) return -1;
  try {
    return count_nodes(parse_dimensions(spec, "topology"));
  } catch (const ConfigError&) {
    return -1;
  }
}

std::vector<Dimension> Topology::parse_dimensions(const std::string& spec, const std::string& field) {
  auto colon = spec.find(':');
  if (colon == std::string::npos) throw ConfigError(field, spec, kTopologyRule);
  std::string kind = spec.substr(0, colon);
  std::string rest = spec.substr(colon + 1);
  std::vector<Dimension> dims;
  if (kind == "hypercube") {
    const std::string range = "the hypercube dimension must be 1.." + std::to_string(kMaxHypercubeDimension) +
                              " (at most " + std::to_string(kMaxNodes) + " nodes)";
    const std::int64_t n = parse_digits(rest, kMaxHypercubeDimension);
    if (n < 0) throw ConfigError(field, spec, "the hypercube dimension is not a whole number; " + range);
    if (n < 1 || n > kMaxHypercubeDimension)
      throw ConfigError(field, spec, range + ": " + echo(rest) + " is out of range");
    dims.assign(static_cast<std::size_t>(n), Dimension{DimensionKind::Complete, 2});
  } else if (kind == "mesh" || kind == "torus" || kind == "ring" || kind == "ghc") {
    DimensionKind dk = kind == "mesh" ? DimensionKind::Path
                       : kind == "ghc" ? DimensionKind::Complete
                                       : DimensionKind::Ring;
    auto sizes = split(rest, 'x');
    if (kind == "ring" && sizes.size() != 1)
      throw ConfigError(field, spec, "a ring has one dimension: ring:N");
    for (const auto& s : sizes) dims.push_back({dk, parse_size(s, field, spec)});
  } else if (kind == "product") {
    for (const auto& term : split(rest, 'x')) {
      auto digit = term.find_first_of("0123456789");
      std::string name = term.substr(0, digit);
      DimensionKind dk;
      if (name == "path" || name == "mesh") dk = DimensionKind::Path;
      else if (name == "ring" || name == "torus") dk = DimensionKind::Ring;
      else if (name == "complete" || name == "ghc") dk = DimensionKind::Complete;
      else throw ConfigError(field, spec, "unknown dimension kind '" + echo(name) + "': expected path, ring or complete");
      dims.push_back({dk, parse_size(digit == std::string::npos ? "" : term.substr(digit), field, spec)});
    }
  } else {
    throw ConfigError(field, spec, std::string("unknown topology kind '") + echo(kind) + "': " + kTopologyRule);
  }
  if (dims.empty()) throw ConfigError(field, spec, kTopologyRule);
  return dims;
}

void register_fabric_spelling(FabricSpelling spelling) {
  static const std::vector<std::string> topology_kinds = {"mesh", "torus", "ring", "hypercube", "ghc", "product"};
  if (spelling.name.empty()) throw ConfigError("topology", spelling.name, "a fabric's spelling needs a name");
  if (std::find(topology_kinds.begin(), topology_kinds.end(), spelling.name) != topology_kinds.end() ||
      fabric_spelling(spelling.name))
    throw ConfigError("topology", spelling.name, "names a topology already");
  fabric_spellings().push_back(std::move(spelling));
}

std::string Topology::fabric_of(const std::string& spec) {
  const FabricSpelling* spelling = fabric_spelling(spec);
  return spelling ? spelling->name : "";
}

Topology::Topology(std::vector<Dimension> dimensions, std::string spec, std::string fabric)
    : dims_(std::move(dimensions)), num_nodes_(1), spec_(std::move(spec)), fabric_(std::move(fabric)) {
  for (const auto& d : dims_) {
    stride_.push_back(num_nodes_);
    num_nodes_ *= d.size;
  }
  for (int d = 0; d < num_dimensions(); ++d) {
    first_port_.push_back(num_ports());
    if (dims_[d].kind == DimensionKind::Complete) {
      for (int off = 1; off < dims_[d].size; ++off) ports_.push_back({d, off});
    } else if (dims_[d].kind == DimensionKind::Ring && dims_[d].size == 2) {
      ports_.push_back({d, +1});  // the two nodes of a 2-ring share one link each way: -1 is +1
    } else {
      ports_.push_back({d, -1});
      ports_.push_back({d, +1});
    }
  }
  for (const auto& p : ports_) {
    int back = dims_[p.dimension].kind == DimensionKind::Complete ? dims_[p.dimension].size - p.offset
                                                                  : -p.offset;
    reverse_.push_back(port_of(p.dimension, back));
  }
  coordinates_.resize(static_cast<std::size_t>(num_nodes_) * dims_.size());
  for (int n = 0; n < num_nodes_; ++n)
    for (int d = 0; d < num_dimensions(); ++d)
      coordinates_[static_cast<std::size_t>(n) * dims_.size() + static_cast<std::size_t>(d)] = (n / stride_[d]) % dims_[d].size;
  neighbors_.resize(static_cast<std::size_t>(num_nodes_) * ports_.size());
  for (int n = 0; n < num_nodes_; ++n)
    for (int p = 0; p < num_ports(); ++p) neighbors_[static_cast<std::size_t>(n) * ports_.size() + p] = compute_neighbor(n, p);
}

bool Topology::has_rings() const {
  for (const auto& d : dims_)
    if (d.kind == DimensionKind::Ring) return true;
  return false;
}

std::vector<int> Topology::coordinates(int node) const {
  std::vector<int> c(dims_.size());
  for (int d = 0; d < num_dimensions(); ++d) c[d] = coordinate(node, d);
  return c;
}

int Topology::node_at(const std::vector<int>& coords) const {
  int node = 0;
  for (int d = 0; d < num_dimensions(); ++d) node += coords[d] * stride_[d];
  return node;
}

std::string Topology::coordinates_text(int node) const {
  std::string s = "(";
  for (int d = 0; d < num_dimensions(); ++d) s += (d ? "," : "") + std::to_string(coordinate(node, d));
  return s + ")";
}

int Topology::compute_neighbor(int node, int p) const {
  const Port& port = ports_[p];
  const Dimension& dim = dims_[port.dimension];
  int c = coordinate(node, port.dimension);
  int t = c + port.offset;
  if (dim.kind == DimensionKind::Path) {
    if (t < 0 || t >= dim.size) return -1;
  } else {
    t = ((t % dim.size) + dim.size) % dim.size;
  }
  return with_coordinate(node, port.dimension, t);
}

bool Topology::crosses_dateline(int node, int p) const {
  const Port& port = ports_[p];
  const Dimension& dim = dims_[port.dimension];
  if (dim.kind != DimensionKind::Ring) return false;
  int c = coordinate(node, port.dimension);
  return (port.offset > 0 && c == dim.size - 1) || (port.offset < 0 && c == 0);
}

int Topology::dimension_distance(int d, int a, int b) const {
  int diff = std::abs(a - b);
  switch (dims_[d].kind) {
    case DimensionKind::Path: return diff;
    case DimensionKind::Ring: return std::min(diff, dims_[d].size - diff);
    case DimensionKind::Complete: return diff == 0 ? 0 : 1;
  }
  return 0;
}

int Topology::distance(int a, int b) const {
  int sum = 0;
  for (int d = 0; d < num_dimensions(); ++d) sum += dimension_distance(d, coordinate(a, d), coordinate(b, d));
  return sum;
}

int Topology::diameter() const {
  int sum = 0;
  for (const auto& d : dims_)
    sum += d.kind == DimensionKind::Path ? d.size - 1 : d.kind == DimensionKind::Ring ? d.size / 2 : 1;
  return sum;
}

std::int64_t Topology::dimension_status(int d, int c) const {
  std::int64_t s = 0;
  for (int u = 0; u < dims_[d].size; ++u) s += dimension_distance(d, c, u);
  return s;
}

std::int64_t Topology::status(int node) const {
  std::int64_t s = 0;
  for (int d = 0; d < num_dimensions(); ++d)
    s += (num_nodes_ / dims_[d].size) * dimension_status(d, coordinate(node, d));
  return s;
}

double Topology::average_status() const {
  double as = 0;
  for (int d = 0; d < num_dimensions(); ++d) {
    std::int64_t sum = 0;
    for (int c = 0; c < dims_[d].size; ++c) sum += dimension_status(d, c);
    double as_d = static_cast<double>(sum) / dims_[d].size;
    as += static_cast<double>(num_nodes_) * as_d / dims_[d].size;
  }
  return as;
}

}  // namespace meshmp
