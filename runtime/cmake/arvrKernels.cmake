# arvr_add_kernel: a .arvr kernel compiled by arvrc when the project builds.
#
#   arvr_add_kernel(<target> <file.arvr>
#                   [NAME <name>] [KERNEL <kernel>] [CHIP <sm_XY>] [CUBIN]
#                   [SPECIALIZE <name=value> ...])
#
# Adds the target <target>, which runs `arvrc build` on <file.arvr> (again
# whenever it or arvrc changes) into ${CMAKE_CURRENT_BINARY_DIR}/<target>/:
# <name>.ptx (or, with CUBIN, <name>.cubin assembled by the CUDA toolkit's
# ptxas) and <name>.plan.json, the launch plan the runtime opens
# (arvr_kernel_open). <name> defaults to the file's name without its
# extension. The target's property ARVR_PLAN holds the plan's path, for a
# program to be told where it is (e.g. as a compile definition):
#
#   arvr_add_kernel(blur_kernel blur.arvr SPECIALIZE radius=4)
#   add_dependencies(app blur_kernel)
#   target_compile_definitions(app PRIVATE
#     BLUR_PLAN="$<TARGET_PROPERTY:blur_kernel,ARVR_PLAN>")
#
# arvrc is ARVR_ARVRC: set by find_package(arvr) to the installed one.

function(arvr_add_kernel target source)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "CUBIN" "NAME;KERNEL;CHIP" "SPECIALIZE")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "arvr_add_kernel: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARVR_ARVRC)
    message(FATAL_ERROR "arvr_add_kernel: ARVR_ARVRC (the arvrc program) is not set")
  endif()
  get_filename_component(source "${source}" ABSOLUTE)
  set(name "${ARG_NAME}")
  if(NOT name)
    get_filename_component(name "${source}" NAME_WE)
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  set(binary "${dir}/${name}.ptx")
  set(options)
  if(ARG_CUBIN)
    set(binary "${dir}/${name}.cubin")
    list(APPEND options --emit=cubin)
  endif()
  if(ARG_KERNEL)
    list(APPEND options --kernel "${ARG_KERNEL}")
  endif()
  if(ARG_CHIP)
    list(APPEND options --chip "${ARG_CHIP}")
  endif()
  foreach(value IN LISTS ARG_SPECIALIZE)
    list(APPEND options --specialize "${value}")
  endforeach()
  set(plan "${dir}/${name}.plan.json")
  add_custom_command(
    OUTPUT "${binary}" "${plan}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
    COMMAND "${ARVR_ARVRC}" build "${source}" ${options} -o "${binary}"
            --plan "${plan}" --manifest "${dir}/${name}.manifest"
    DEPENDS "${source}" "${ARVR_ARVRC}"
    COMMENT "arvrc: compiling ${name} (${source})"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS "${binary}" "${plan}")
  set_target_properties(${target} PROPERTIES ARVR_PLAN "${plan}")
endfunction()
