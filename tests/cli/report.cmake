# tierwise report: the HTML report, checked as text and, with chromium, rendered
# (screenshot kept in the build tree as tests/report.png).
tw_cli_test(report)
set_property(TEST cli.report APPEND PROPERTY ENVIRONMENT
  "TW_ARTIFACT_DIR=${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(cli.report PROPERTIES TIMEOUT 300)
