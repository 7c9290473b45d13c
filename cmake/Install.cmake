# cmake --install: headers, static libraries, a CMake package
# (find_package(gpuwcet) -> gpuwcet::core, gpuwcet::capi) and gpuwcet.pc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS gpuwcet_core gpuwcet_capi EXPORT gpuwcetTargets
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
