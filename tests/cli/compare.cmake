tw_cli_test(compare)
