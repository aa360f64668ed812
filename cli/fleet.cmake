# tierwise fleet and tierwise export (issue 16): the commands; renderers in render/.
target_sources(tierwise PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/cmd_fleet.c
               ${CMAKE_CURRENT_SOURCE_DIR}/cmd_export.c)
target_link_libraries(tierwise PRIVATE tw_render tw_fleet)
