# Workload policies (YAML, libyaml) and the metric table; included by
# model/CMakeLists.txt after tw_model exists.
target_sources(tw_model PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/metrics.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_keys.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_load.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_values.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_yaml.c)
