# find_package(meshmp): the installed library's targets (one per folder; meshmp::firmware and meshmp::hw
# gather them) and what they need (SystemC through pkg-config, nlohmann-json, threads). See docs/library.md.
include(CMakeFindDependencyMacro)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::SYSTEMC)
  pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET systemc)
endif()
find_dependency(nlohmann_json)
find_dependency(Threads)
include(${CMAKE_CURRENT_LIST_DIR}/meshmpTargets.cmake)
