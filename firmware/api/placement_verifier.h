// The check every workload's verifier makes after a run: each data unit (a block, a matrix element) must
// sit byte for byte in its expected node and slot. Every lost, duplicated, misplaced or corrupted unit
// is named by its identity, its expected node and slot, and where it was found.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace meshmp {

struct VerificationReport {
  std::string unit = "block";  // what was checked: "block", "element"
  std::uint64_t units_checked = 0;
  std::uint64_t units_correct = 0;
  std::vector<std::string> errors;  // at most kMaxListedErrors lines
  std::uint64_t error_count = 0;
  bool ok() const { return error_count == 0; }
  static constexpr std::size_t kMaxListedErrors = 50;
};

struct Place {
  int node = 0;
  std::uint64_t slot = 0;
};

// Units are numbered 0 .. units-1.
struct PlacementCheck {
  std::string unit = "block";
  std::uint64_t units = 0;
  std::uint32_t unit_bytes = 0;
  std::function<Place(std::uint64_t unit)> expected_place;
  // The unit_bytes bytes of a slot after the run.
  std::function<const std::uint8_t*(Place)> read;
  // A unit's data, one of the two: `expected` writes a unit's unit_bytes bytes, as its place must hold
  // them, into `bytes` (one call per unit checked, then a memcmp); `pattern` gives byte `index` of it (a
  // call per byte: simpler to write, slower on many bytes). `expected` is used when both are set.
  std::function<void(std::uint64_t unit, std::uint8_t* bytes)> expected;
  std::function<std::uint8_t(std::uint64_t unit, std::uint32_t index)> pattern;
  // Which unit a slot's bytes are, when they are one (all bytes checked).
  std::function<std::optional<std::uint64_t>(const std::uint8_t* data)> identify;
  // "block 3->5", "element (2,7)".
  std::function<std::string(std::uint64_t unit)> name;
};

VerificationReport verify_placement(const PlacementCheck& check);

// "node 2 slot 1".
std::string place_name(Place place);

}  // namespace meshmp
