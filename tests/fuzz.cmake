# Fuzz targets (tests/fuzz/, docs/fuzzing.md); included from tests/tests.cmake.
#
# Every build: fuzz.replay.TARGET feeds the seed corpus
# tests/fuzz/corpus/TARGET/ and the crash regressions
# tests/fuzz/regressions/TARGET/ to the target once, through a plain main()
# (tests/fuzz/replay.c), so gcc, ASan and UBSan builds run the same inputs.
#
# -DTW_FUZZ=ON (clang, with CMAKE_C_FLAGS containing
# -fsanitize=fuzzer-no-link,address,undefined; scripts/fuzz configures it)
# adds the libFuzzer binaries fuzz_TARGET and one short fuzz.smoke.TARGET
# run each (tests/fuzz/CMakeLists.txt).
option(TW_FUZZ "Build the libFuzzer targets (clang; see docs/fuzzing.md)" OFF)

set(TW_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR}/fuzz)
set(TW_FUZZ_TARGETS)
file(STRINGS ${TW_FUZZ_DIR}/targets tw_fuzz_lines REGEX "^[a-z]")
foreach(line IN LISTS tw_fuzz_lines)
  string(REGEX MATCH "^([a-z_]+)[ \t]+([0-9]+)[ \t]+([0-9]+)" tw_ok "${line}")
  if(NOT tw_ok)
    message(FATAL_ERROR "tests/fuzz/targets: bad line: ${line}")
  endif()
  list(APPEND TW_FUZZ_TARGETS ${CMAKE_MATCH_1})
  set(TW_FUZZ_MAXLEN_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  set(TW_FUZZ_RUNS_${CMAKE_MATCH_1} ${CMAKE_MATCH_3})
endforeach()

# What each target links, and sources it compiles in besides its own.
set(TW_FUZZ_LIBS_profile tw_profile)
set(TW_FUZZ_LIBS_policy tw_model)
set(TW_FUZZ_LIBS_prices tw_model)
set(TW_FUZZ_LIBS_inventory tw_probe tw_advisor PkgConfig::JANSSON)
set(TW_FUZZ_SRCS_inventory ${PROJECT_SOURCE_DIR}/cli/plan_disks.c)
set(TW_FUZZ_LIBS_nvme tw_probe)
set(TW_FUZZ_LIBS_fio tw_profile)

# The target's own file, what it needs, and the source dir for its data.
function(tw_fuzz_setup exe name)
  target_sources(${exe} PRIVATE ${TW_FUZZ_DIR}/fuzz_${name}.c ${TW_FUZZ_SRCS_${name}})
  # fuzz targets are white-box, as the unit tests: private headers too
  target_include_directories(${exe} PRIVATE ${TW_FUZZ_DIR} ${PROJECT_SOURCE_DIR}/cli
    ${PROJECT_SOURCE_DIR}/probe ${PROJECT_SOURCE_DIR}/model ${PROJECT_SOURCE_DIR}/advisor
    ${PROJECT_SOURCE_DIR}/profile)
  target_compile_definitions(${exe} PRIVATE TW_FUZZ_SRCDIR="${PROJECT_SOURCE_DIR}")
  target_link_libraries(${exe} PRIVATE ${TW_FUZZ_LIBS_${name}})
endfunction()

foreach(name IN LISTS TW_FUZZ_TARGETS)
  add_executable(fuzz_replay_${name} ${TW_FUZZ_DIR}/replay.c)
  tw_fuzz_setup(fuzz_replay_${name} ${name})
  add_test(NAME fuzz.replay.${name}
    COMMAND fuzz_replay_${name} ${TW_FUZZ_DIR}/corpus/${name} ${TW_FUZZ_DIR}/regressions/${name})
  set_tests_properties(fuzz.replay.${name} PROPERTIES
    ENVIRONMENT "TW_SRCDIR=${PROJECT_SOURCE_DIR}" LABELS fuzz)
endforeach()

if(TW_FUZZ)
  add_subdirectory(${TW_FUZZ_DIR} ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
endif()
