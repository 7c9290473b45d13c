# cmake --install: headers, static libraries, a CMake package
# (find_package(gpuwcet) -> gpuwcet::core, gpuwcet::capi) and gpuwcet.pc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_gpuwcet_install_targets gpuwcet_core gpuwcet_capi)
# The C API is a static library that calls the ILP library when GLPK is
# built in, so an installed consumer needs both (and -lglpk).
set(GPUWCET_PC_LIBS "-lgpuwcet -lgpuwcet_core")
if(TARGET gpuwcet_glpk)
  list(APPEND _gpuwcet_install_targets gpuwcet_glpk)
  # All static: the dependencies go on the plain Libs line, in link order.
  set(GPUWCET_PC_LIBS "-lgpuwcet -lgpuwcet_glpk -lgpuwcet_core -lglpk -lm")
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/glpk/include/gpuwcet_glpk
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
install(TARGETS ${_gpuwcet_install_targets} EXPORT gpuwcetTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gpuwcet DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
file(GLOB _gpuwcet_c_headers ${PROJECT_SOURCE_DIR}/capi/include/*.h)
install(FILES ${_gpuwcet_c_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(GPUWCET_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpuwcet)
install(EXPORT gpuwcetTargets NAMESPACE gpuwcet:: DESTINATION ${GPUWCET_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpuwcetConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gpuwcetConfig.cmake INSTALL_DESTINATION ${GPUWCET_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpuwcetConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpuwcetConfig.cmake
              ${PROJECT_BINARY_DIR}/gpuwcetConfigVersion.cmake
        DESTINATION ${GPUWCET_CMAKE_DIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/gpuwcet.pc.in ${PROJECT_BINARY_DIR}/gpuwcet.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gpuwcet.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
