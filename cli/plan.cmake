# tierwise plan: the command and its renderers.
file(GLOB TW_PLAN_SRC CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cmd_plan.c
     ${CMAKE_CURRENT_SOURCE_DIR}/plan_disks.c ${CMAKE_CURRENT_SOURCE_DIR}/render_plan*.c)
target_sources(tierwise PRIVATE ${TW_PLAN_SRC})
