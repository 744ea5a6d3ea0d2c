// Which meshmp made a result: its version (the project's, CMakeLists.txt) and the source commit it was
// built from (cmake/source_commit.cmake, at every build). `meshmp --version` prints them and every JSON
// file meshmp writes carries them under "meshmp".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace meshmp {

const char* meshmp_version();
const char* meshmp_source_commit();
// {"version": ..., "commit": ...}
nlohmann::json build_identity();
// "meshmp 0.1.0 (commit 0123456789ab)"
std::string version_line();

}  // namespace meshmp
