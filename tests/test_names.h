// Names for parameterized tests over machines: the topology spec with ':' made '_' (GoogleTest names
// allow letters, digits and '_'), e.g. "torus:4x4" -> "torus_4x4".
#pragma once

#include <string>

#include <gtest/gtest.h>

namespace meshmp {

inline std::string spec_test_name(std::string spec) {
  for (char& c : spec)
    if (c == ':') c = '_';
  return spec;
}

inline std::string topology_test_name(const ::testing::TestParamInfo<const char*>& info) {
  return spec_test_name(info.param);
}

}  // namespace meshmp
