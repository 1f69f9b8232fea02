# The MultiTreeNI CMake package: `find_package(MultiTreeNI 0.1)` in an installed prefix gives
# MultiTreeNI::format (the generated format header), MultiTreeNI::host (planner, verifier,
# schedule tables and images), MultiTreeNI::workload (DNN workloads and the compute model),
# MultiTreeNI::noc (the SystemC NI, routers and networks), MultiTreeNI::training (a training
# iteration's timeline with simulated all-reduces) and, in a build with MT_COSIM,
# MultiTreeNI::cosim (the Verilated RTL NI behind the NI sockets).
include(CMakePackageConfigHelpers)
set(MT_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/MultiTreeNI)
install(EXPORT MultiTreeNITargets NAMESPACE MultiTreeNI:: DESTINATION ${MT_PACKAGE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/MultiTreeNIConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/package/MultiTreeNIConfig.cmake
                              INSTALL_DESTINATION ${MT_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/MultiTreeNIConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/MultiTreeNIConfig.cmake
              ${CMAKE_BINARY_DIR}/package/MultiTreeNIConfigVersion.cmake
        DESTINATION ${MT_PACKAGE_DIR})
