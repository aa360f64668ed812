# The test list.  Unit tests link the stage libraries they test.
tw_unit_test(test_jsonpos tw_common)
tw_unit_test(test_profile tw_profile)
tw_unit_test(test_model tw_model tw_advisor)
tw_unit_test(test_inventory tw_probe)

tw_cli_test(validate)
tw_cli_test(jsonschema)
tw_cli_test(csv2profile)
tw_cli_test(live_list)
tw_cli_test(golden)
add_test(NAME fixtures.consistent COMMAND bash ${PROJECT_SOURCE_DIR}/tests/fixtures/check-fixtures.sh)
set_tests_properties(fixtures.consistent PROPERTIES SKIP_RETURN_CODE 77)
tw_cli_test(probe_safety)
