// The one way every kind of extension is found by name: algorithms (firmware/api/algorithm_registry.h),
// workloads (firmware/workloads/workload.h), router models (hw/router/router_model.h) and machines' fabrics
// (hw/fabric/fabric.h). meshmp's own entries register from their own files at static initialisation, as
// families with a list position that orders them whatever the order the linker initialises the files in;
// a program built on the library adds entries after them. An entry is anything with a `name`. References
// to entries stay valid only until the next registration.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "topology/config_error.h"

namespace meshmp {

template <typename Entry>
class Registry {
 public:
  using Family = std::function<std::vector<Entry>()>;

  // `field` and `what` name the entries in errors: ConfigError(field, name, "unknown <what>; known: ...").
  Registry(std::string field, std::string what) : field_(std::move(field)), what_(std::move(what)) {}

  // A family of meshmp's own, from a static initialiser of its file (one added after the first use of
  // entries() is appended there).
  void add_family(int list_position, Family family) {
    if (!built_) {
      families_.emplace_back(list_position, std::move(family));
      return;
    }
    for (auto& entry : family()) entries_.push_back(std::move(entry));
  }

  // Every entry: the families by list position, then those append() added. Built at first use, after
  // every file's static registration.
  std::vector<Entry>& entries() {
    if (!built_) {
      std::stable_sort(families_.begin(), families_.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& family : families_)
        for (auto& entry : family.second()) entries_.push_back(std::move(entry));
      built_ = true;
    }
    return entries_;
  }

  // The entry named `name`, or null.
  const Entry* lookup(const std::string& name) {
    for (const Entry& entry : entries())
      if (entry.name == name) return &entry;
    return nullptr;
  }
  // The entry named `name`; ConfigError naming the known ones otherwise.
  const Entry& find(const std::string& name) {
    if (const Entry* entry = lookup(name)) return *entry;
    std::string known;
    for (const Entry& entry : entries()) known += (known.empty() ? "" : ", ") + entry.name;
    throw ConfigError(field_, name, "unknown " + what_ + "; known: " + known);
  }

  // Appends an entry of a program's own, after the checks of the kind's register function: ConfigError
  // for an empty or taken name (`taken` says whose, when the kind knows: " (002 §1)").
  void append(Entry entry, const std::string& taken = "") {
    if (entry.name.empty()) throw ConfigError(field_, entry.name, "a registered " + what_ + " needs a name");
    if (lookup(entry.name)) throw ConfigError(field_, entry.name, "is registered already" + taken);
    entries().push_back(std::move(entry));
  }

  std::vector<std::string> names() {
    std::vector<std::string> list;
    for (const Entry& entry : entries()) list.push_back(entry.name);
    return list;
  }

 private:
  std::string field_, what_;
  std::vector<std::pair<int, Family>> families_;
  std::vector<Entry> entries_;
  bool built_ = false;
};

}  // namespace meshmp
