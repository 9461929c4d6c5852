# What `cmake --install` puts under the prefix, the CMake package config
# (`find_package(vmaf)`), and the .deb (`cpack -G DEB`).
#
# Layout under the prefix:
#   bin/vmaf                                  the CLI
#   lib/libvmaf.a, lib/libvmaf.so.3 (+ .so link)  the library, static and shared
#   include/vmaf/*.hpp                        the C++ API
#   include/libvmaf/*.h, lib/pkgconfig/libvmaf.pc   the C API (installed by src/capi)
#   lib/cmake/vmaf/                           vmafConfig.cmake, targets vmaf::vmaf, vmaf::vmaf_static
#   share/vmaf/model/*.json                   the built-in models as files (for --model path=)
#   share/doc/vmaf-engine/                    README, NOTICE, model license
#
# Library targets add themselves with vmaf_install_library(<target> <export name>).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VMAF_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/vmaf")

function(vmaf_install_library target export_name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  install(TARGETS ${target} EXPORT vmafTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Unspecified
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()

vmaf_install_library(vmaf vmaf_static)
vmaf_install_library(vmaf_shared vmaf)
install(TARGETS vmaf_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/vmaf DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
file(GLOB _vmaf_models "${VMAF_MODEL_DIR}/*.json")
install(FILES ${_vmaf_models} DESTINATION ${CMAKE_INSTALL_DATADIR}/vmaf/model)
set(VMAF_DOC_DIR "${CMAKE_INSTALL_DATADIR}/doc/vmaf-engine")
install(FILES README.md NOTICE DESTINATION ${VMAF_DOC_DIR})
install(FILES model/LICENSE DESTINATION ${VMAF_DOC_DIR} RENAME LICENSE.models)

install(EXPORT vmafTargets NAMESPACE vmaf:: DESTINATION ${VMAF_CMAKE_DIR})
configure_package_config_file(cmake/vmafConfig.cmake.in "${PROJECT_BINARY_DIR}/vmafConfig.cmake"
                              INSTALL_DESTINATION ${VMAF_CMAKE_DIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/vmafConfigVersion.cmake"
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/vmafConfig.cmake" "${PROJECT_BINARY_DIR}/vmafConfigVersion.cmake"
        DESTINATION ${VMAF_CMAKE_DIR})

# The .deb: one package with the CLI, the libraries, headers and package
# files. Runtime dependencies come from dpkg-shlibdeps.
set(CPACK_PACKAGE_NAME "vmaf-engine")
set(CPACK_PACKAGE_VENDOR "vmaf-engine")
set(CPACK_PACKAGE_CONTACT "vmaf-engine developers <vmaf-engine@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "VMAF video quality metrics, bit-exact with Netflix libvmaf, fast on CPU and GPU")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "video")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Static-library users also need these development packages.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libhwy-dev, libtbb-dev, nlohmann-json3-dev")
# Container input opens FFmpeg's libraries with dlopen (src/io/av_api.cpp).
if(VMAF_HAVE_FFMPEG)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${VMAF_FFMPEG_DEB_PACKAGES}")
endif()
# Same C headers, pkg-config name and CLI name as Netflix's packaging.
set(CPACK_DEBIAN_PACKAGE_CONFLICTS "libvmaf-dev")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "The vmaf command-line tool and library: VMAF v0.6.1 family models, PSNR and\n more, with the scores of Netflix's libvmaf 3.x to the last bit.")
include(CPack)
