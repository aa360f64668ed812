# Unit tests of scoring and ranking (model/score.c).
tw_unit_test(test_score tw_model)
