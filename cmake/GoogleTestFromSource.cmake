# GoogleTest for a cross build: Debian ships GoogleTest's source in
# /usr/src/googletest (package googletest), so the target's copy is compiled
# here with the cross compiler instead of needing libgtest-dev for every
# architecture. A small package file in the build tree lets the tests' plain
# find_package(GTest) pick these targets up.
set(GPUWCET_GTEST_SOURCE_DIR /usr/src/googletest CACHE PATH "GoogleTest source tree for cross builds")
if(NOT EXISTS ${GPUWCET_GTEST_SOURCE_DIR}/CMakeLists.txt)
  message(FATAL_ERROR "GoogleTest source not found in ${GPUWCET_GTEST_SOURCE_DIR}: "
                      "run scripts/setup-debian.sh (package googletest)")
endif()
set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
add_subdirectory(${GPUWCET_GTEST_SOURCE_DIR} ${CMAKE_BINARY_DIR}/_deps/googletest EXCLUDE_FROM_ALL SYSTEM)
if(NOT TARGET GTest::gtest)
  add_library(GTest::gtest ALIAS gtest)
  add_library(GTest::gtest_main ALIAS gtest_main)
endif()
set(_gtest_pkg ${CMAKE_BINARY_DIR}/_deps/gtest-package)
file(WRITE ${_gtest_pkg}/GTestConfig.cmake
     "# Targets GTest::gtest and GTest::gtest_main are defined by the project.\n")
file(WRITE ${_gtest_pkg}/GTestConfigVersion.cmake
     "set(PACKAGE_VERSION 1.12.1)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n")
set(GTest_DIR ${_gtest_pkg} CACHE PATH "GoogleTest package built from source" FORCE)
