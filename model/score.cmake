target_sources(tw_model PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/score.c)
