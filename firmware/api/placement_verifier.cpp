// The placement check of every workload. See placement_verifier.h.
#include "firmware/api/placement_verifier.h"

#include <cstring>
#include <map>
#include <set>
#include <vector>

namespace meshmp {

std::string place_name(Place place) {
  return "node " + std::to_string(place.node) + " slot " + std::to_string(place.slot);
}

VerificationReport verify_placement(const PlacementCheck& check) {
  VerificationReport report;
  report.unit = check.unit;
  auto add_error = [&](const std::string& text) {
    ++report.error_count;
    if (report.errors.size() < VerificationReport::kMaxListedErrors) report.errors.push_back(text);
  };
  std::vector<std::uint8_t> expected(check.unit_bytes);
  auto expect = [&](std::uint64_t unit) {
    if (check.expected) check.expected(unit, expected.data());
    else
      for (std::uint32_t b = 0; b < check.unit_bytes; ++b) expected[b] = check.pattern(unit, b);
  };
  auto holds = [&](const std::uint8_t* data, std::uint64_t unit) {
    expect(unit);
    return check.unit_bytes == 0 || std::memcmp(data, expected.data(), check.unit_bytes) == 0;
  };

  // Units not in their place.
  std::vector<std::uint64_t> wrong;
  for (std::uint64_t unit = 0; unit < check.units; ++unit) {
    ++report.units_checked;
    if (holds(check.read(check.expected_place(unit)), unit)) ++report.units_correct;
    else wrong.push_back(unit);
  }
  if (wrong.empty()) return report;

  // What each wrong place holds instead: units can only have come from the initial data.
  std::map<std::uint64_t, std::vector<Place>> found;  // unit -> wrong places holding it
  for (std::uint64_t unit : wrong) {
    const Place place = check.expected_place(unit);
    const std::uint8_t* data = check.read(place);
    if (auto other = check.identify(data)) {
      found[*other].push_back(place);
      continue;
    }
    expect(unit);
    std::uint32_t first = 0;
    while (first < check.unit_bytes && data[first] == expected[first]) ++first;
    add_error(place_name(place) + ": expected " + check.name(unit) + ", found unrecognised data (first wrong byte at offset " +
              std::to_string(first) + ")");
  }
  const std::set<std::uint64_t> misplaced(wrong.begin(), wrong.end());
  for (std::uint64_t unit : wrong)
    if (!found.count(unit))
      add_error(check.name(unit) + " lost: it is not in " + place_name(check.expected_place(unit)) + " nor anywhere else");
  for (const auto& [unit, places] : found) {
    std::string where;
    for (const Place& place : places) where += (where.empty() ? "" : ", ") + place_name(place);
    // The unit's own place holds it too when that place is not among the wrong ones.
    if (!misplaced.count(unit) || places.size() > 1)
      add_error(check.name(unit) + " duplicated: also found at " + where);
    else
      add_error(check.name(unit) + " misplaced: found at " + where + " instead of " + place_name(check.expected_place(unit)));
  }
  return report;
}

}  // namespace meshmp
