# tierwise score / explain: the commands and their renderers.
target_sources(tierwise PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/cmd_score.c
  ${CMAKE_CURRENT_SOURCE_DIR}/cmd_explain.c
  ${CMAKE_CURRENT_SOURCE_DIR}/render_score.c)
