# Third-party packages, all from Debian 12 (scripts/setup-debian.sh).

# Microsoft GSL (header-only) is used by the core on every target. On a
# bare-metal cross build the host's copy of the headers is used, copied into
# the build tree alone: putting the host's /usr/include on the path would
# shadow newlib's C headers with glibc's.
if(NOT GPUWCET_BARE_METAL)
  find_package(Microsoft.GSL CONFIG QUIET)
endif()
if(NOT TARGET Microsoft.GSL::GSL)
  find_path(GPUWCET_GSL_INCLUDE_DIR gsl/gsl PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH)
  if(NOT GPUWCET_GSL_INCLUDE_DIR)
    message(FATAL_ERROR "Microsoft GSL not found: run scripts/setup-debian.sh (package libmsgsl-dev)")
  endif()
  set(_gsl_include ${GPUWCET_GSL_INCLUDE_DIR})
  if(GPUWCET_BARE_METAL)
    set(_gsl_include ${CMAKE_BINARY_DIR}/_deps/gsl-include)
    file(COPY ${GPUWCET_GSL_INCLUDE_DIR}/gsl DESTINATION ${_gsl_include})
  endif()
  add_library(Microsoft.GSL::GSL INTERFACE IMPORTED)
  target_include_directories(Microsoft.GSL::GSL SYSTEM INTERFACE ${_gsl_include})
endif()

# GLPK: optional ILP fallback, hosted targets only.
set(GPUWCET_HAVE_GLPK OFF)
if(NOT GPUWCET_GLPK STREQUAL "OFF" AND NOT GPUWCET_BARE_METAL)
  find_path(GLPK_INCLUDE_DIR glpk.h)
  find_library(GLPK_LIBRARY glpk)
  if(GLPK_INCLUDE_DIR AND GLPK_LIBRARY)
    set(GPUWCET_HAVE_GLPK ON)
    add_library(gpuwcet_glpk_import UNKNOWN IMPORTED)
    set_target_properties(gpuwcet_glpk_import PROPERTIES IMPORTED_LOCATION ${GLPK_LIBRARY}
                          INTERFACE_INCLUDE_DIRECTORIES ${GLPK_INCLUDE_DIR})
  elseif(GPUWCET_GLPK STREQUAL "ON")
    message(FATAL_ERROR "GPUWCET_GLPK=ON but GLPK was not found (package libglpk-dev)")
  endif()
endif()
message(STATUS "gpuwcet: GLPK support ${GPUWCET_HAVE_GLPK}")

if(GPUWCET_BUILD_TOOLS)
  find_package(CLI11 CONFIG REQUIRED)
  find_package(nlohmann_json 3 CONFIG REQUIRED)
  # A cross build has no target copy of libfmt: Debian's headers work
  # header-only, which needs no library for the target.
  find_package(fmt CONFIG QUIET)
  if(NOT TARGET fmt::fmt)
    find_path(FMT_INCLUDE_DIR fmt/format-inl.h)
    if(NOT CMAKE_CROSSCOMPILING OR NOT FMT_INCLUDE_DIR)
      message(FATAL_ERROR "fmt not found: run scripts/setup-debian.sh (package libfmt-dev)")
    endif()
    add_library(fmt::fmt INTERFACE IMPORTED)
    target_include_directories(fmt::fmt INTERFACE ${FMT_INCLUDE_DIR})
    target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY=1)
  endif()
  find_package(tomlplusplus CONFIG QUIET)
  if(NOT TARGET tomlplusplus::tomlplusplus)
    find_path(TOMLPP_INCLUDE_DIR toml++/toml.h REQUIRED)
    add_library(tomlplusplus::tomlplusplus INTERFACE IMPORTED)
    target_include_directories(tomlplusplus::tomlplusplus INTERFACE ${TOMLPP_INCLUDE_DIR})
  endif()
endif()
