# Workload policies (YAML, libyaml) and the metric table; included by
# model/CMakeLists.txt after tw_model exists.
target_sources(tw_model PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/metrics.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_keys.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_load.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_values.c
  ${CMAKE_CURRENT_SOURCE_DIR}/policy_yaml.c)
# The default policies built into the binary: policies/*.yaml as a
# generated C source (cmake/embed_policies.cmake), parsed from memory by
# model_policy_load_builtin() (policy_builtin.c).
file(GLOB TW_POLICY_YAML CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/policies/*.yaml)
string(REPLACE ";" "|" TW_POLICY_YAML_ARG "${TW_POLICY_YAML}")
set(TW_POLICY_BUILTIN_C ${CMAKE_CURRENT_BINARY_DIR}/policy_builtin_data.c)
add_custom_command(OUTPUT ${TW_POLICY_BUILTIN_C}
  COMMAND ${CMAKE_COMMAND} -DOUT=${TW_POLICY_BUILTIN_C} -DFILES=${TW_POLICY_YAML_ARG}
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_policies.cmake
  DEPENDS ${TW_POLICY_YAML} ${PROJECT_SOURCE_DIR}/cmake/embed_policies.cmake
  COMMENT "Embedding the default policies" VERBATIM)
target_sources(tw_model PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/policy_builtin.c
  ${TW_POLICY_BUILTIN_C})
