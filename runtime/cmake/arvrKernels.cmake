# arvr_add_kernel: a .arvr kernel compiled by arvrc when the project builds.
#
#   arvr_add_kernel(<target> <file.arvr>
#                   [NAME <name>] [KERNEL <kernel>] [CHIP <sm_XY>] [CUBIN]
#                   [CPU [<cpu>]] [SPECIALIZE <name=value> ...])
#
# Adds the target <target>, which runs `arvrc build` on <file.arvr> (again
# whenever it or arvrc changes) into ${CMAKE_CURRENT_BINARY_DIR}/<target>/.
#
# For the GPU (the default): <name>.ptx (or, with CUBIN, <name>.cubin
# assembled by the CUDA toolkit's ptxas) and <name>.plan.json, the launch
# plan the runtime opens (arvr_kernel_open). <name> defaults to the file's
# name without its extension. The target's property ARVR_PLAN holds the
# plan's path, for a program to be told where it is (e.g. as a compile
# definition):
#
#   arvr_add_kernel(blur_kernel blur.arvr SPECIALIZE radius=4)
#   add_dependencies(app blur_kernel)
#   target_compile_definitions(app PRIVATE
#     BLUR_PLAN="$<TARGET_PROPERTY:blur_kernel,ARVR_PLAN>")
#
# With CPU: the kernel as machine code for the CPU (`arvrc build --target
# cpu --emit=obj`; <cpu> is an LLVM CPU name, default "host", the building
# machine's), in a static library <target> to link, whose header <name>.h
# (on its include path) declares arvr_open_<kernel>(), which opens it with
# the runtime (linked too):
#
#   arvr_add_kernel(blur_cpu blur.arvr CPU)
#   target_link_libraries(app PRIVATE blur_cpu)   # #include "blur.h"
#
# arvrc is ARVR_ARVRC: set by find_package(arvr) to the installed one.

function(arvr_add_kernel target source)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "CUBIN" "NAME;KERNEL;CHIP" "SPECIALIZE;CPU")
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
  # Options of both forms.
  set(options)
  if(ARG_KERNEL)
    list(APPEND options --kernel "${ARG_KERNEL}")
  endif()
  foreach(value IN LISTS ARG_SPECIALIZE)
    list(APPEND options --specialize "${value}")
  endforeach()
  if(DEFINED ARG_CPU OR "CPU" IN_LIST ARG_KEYWORDS_MISSING_VALUES)
    _arvr_add_cpu_kernel()
    return()
  endif()
  set(binary "${dir}/${name}.ptx")
  if(ARG_CUBIN)
    set(binary "${dir}/${name}.cubin")
    list(APPEND options --emit=cubin)
  endif()
  if(ARG_CHIP)
    list(APPEND options --chip "${ARG_CHIP}")
  endif()
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

# arvr_add_kernel's CPU form, in its scope.
macro(_arvr_add_cpu_kernel)
  set(_cpu host)
  if(ARG_CPU)
    set(_cpu "${ARG_CPU}")
  endif()
  set(_options ${options} --target cpu --emit=obj --cpu "${_cpu}")
  set(_object "${dir}/${name}.o")
  add_custom_command(
    OUTPUT "${_object}" "${dir}/${name}.h" "${dir}/${name}.plan.json"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
    COMMAND "${ARVR_ARVRC}" build "${source}" ${_options} -o "${_object}"
    DEPENDS "${source}" "${ARVR_ARVRC}"
    COMMENT "arvrc: compiling ${name} for the CPU (${source})"
    VERBATIM)
  set_source_files_properties("${_object}" PROPERTIES EXTERNAL_OBJECT ON
    GENERATED ON)
  add_library(${target} STATIC "${_object}" "${dir}/${name}.h")
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C
    ARVR_PLAN "${dir}/${name}.plan.json")
  target_include_directories(${target} INTERFACE "${dir}")
  # The kernel calls the C library's math (expf, ...) and malloc.
  target_link_libraries(${target} INTERFACE arvr::runtime m)
endmacro()
