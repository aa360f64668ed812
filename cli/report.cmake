# tierwise report and tierwise compare: the commands and their renderers.
file(GLOB TW_REPORT_SRC CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cmd_report.c
     ${CMAKE_CURRENT_SOURCE_DIR}/render_report*.c ${CMAKE_CURRENT_SOURCE_DIR}/cmd_compare.c
     ${CMAKE_CURRENT_SOURCE_DIR}/render_compare*.c ${CMAKE_CURRENT_SOURCE_DIR}/compare*.c)
target_sources(tierwise PRIVATE ${TW_REPORT_SRC})
