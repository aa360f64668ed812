# Unit tests of the probe's measurement math (no hardware).
tw_unit_test(test_hist tw_probe)
tw_unit_test(test_rng tw_probe)
tw_unit_test(test_steady tw_probe)
tw_unit_test(test_cliff tw_probe)
