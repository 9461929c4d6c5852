include(${CMAKE_CURRENT_LIST_DIR}/Registry.cmake)

# Feature folders register their extractor kinds here; the registry source is
# generated from the list, so a feature lives entirely in its own folder.
#   vmaf_register_extractor(<C++ symbol of a const vmaf::ExtractorInfo>)
function(vmaf_register_extractor symbol)
  set_property(GLOBAL APPEND PROPERTY VMAF_EXTRACTORS "${symbol}")
endfunction()

# Adds a GoogleTest executable `name` from `sources`, linked to the library.
function(vmaf_add_test name)
  if(NOT VMAF_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "" "" "SOURCES;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  set_property(GLOBAL APPEND PROPERTY VMAF_UNIT_TEST_TARGETS ${name})
  target_link_libraries(${name} PRIVATE vmaf vmaf_testsupport GTest::gtest GTest::gtest_main TBB::tbb
                        nlohmann_json::nlohmann_json)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE
    VMAF_TESTDATA_DIR="${VMAF_TESTDATA_DIR}" VMAF_MODEL_DIR="${VMAF_MODEL_DIR}")
  # A test whose clip this ffmpeg makes differently says so and counts as skipped.
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${T_LABELS}"
                       SKIP_REGULAR_EXPRESSION "VMAF_CORPUS_SKIPPED")
endfunction()

function(vmaf_finish_feature_registry)
  get_property(syms GLOBAL PROPERTY VMAF_EXTRACTORS)
  vmaf_write_registry(OUTPUT "${PROJECT_BINARY_DIR}/generated/registry_list.cpp" GENERATOR cmake/Features.cmake
    INCLUDE core/feature_extractor.hpp NAMESPACE vmaf TYPE ExtractorInfo ARRAY kExtractors COUNT kExtractorCount
    SYMBOLS ${syms})
  target_sources(vmaf PRIVATE "${PROJECT_BINARY_DIR}/generated/registry_list.cpp")
endfunction()

# Adds a Google Benchmark executable `name` from `sources` (not run by ctest).
function(vmaf_add_benchmark name)
  if(NOT TARGET vmaf_benchsupport)
    return()  # no tests, or no Google Benchmark (see the top CMakeLists.txt)
  endif()
  cmake_parse_arguments(B "" "" "SOURCES" ${ARGN})
  add_executable(${name} ${B_SOURCES})
  target_link_libraries(${name} PRIVATE vmaf vmaf_benchsupport benchmark::benchmark)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
endfunction()
