# Unit tests of the warnings from the data (advisor/warn.c).
tw_unit_test(test_warn tw_advisor)
