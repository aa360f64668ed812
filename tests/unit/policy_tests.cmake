# Unit tests of the workload policies (parser, validation, metric table).
tw_unit_test(test_policy tw_model)
