# Install rules beside the binary's own (cli/CMakeLists.txt): the man page,
# the workload policies (found by the installed binary through
# TW_POLICY_RELDIR / TW_POLICY_DIR, cli/CMakeLists.txt) and the bash
# completion.  `cmake --install BUILD [--prefix DIR]`; `cpack -G DEB` packs
# the same tree (CPack settings in the top-level CMakeLists.txt).
include(GNUInstallDirs)

# The man page, gzipped as Debian wants it (plain when gzip is missing).
set(TW_MAN_SRC ${PROJECT_SOURCE_DIR}/docs/tierwise.1)
find_program(TW_GZIP gzip)
if(TW_GZIP)
  set(TW_MAN ${PROJECT_BINARY_DIR}/man/tierwise.1.gz)
  add_custom_command(OUTPUT ${TW_MAN}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -E copy ${TW_MAN_SRC} ${PROJECT_BINARY_DIR}/man/tierwise.1
    COMMAND ${TW_GZIP} -9nf ${PROJECT_BINARY_DIR}/man/tierwise.1
    DEPENDS ${TW_MAN_SRC} VERBATIM)
  add_custom_target(tw_manpage ALL DEPENDS ${TW_MAN})
else()
  set(TW_MAN ${TW_MAN_SRC})
endif()
install(FILES ${TW_MAN} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/policies/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/tierwise/policies
  FILES_MATCHING PATTERN "*.yaml")

install(FILES ${PROJECT_SOURCE_DIR}/scripts/completion/tierwise.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME tierwise)
