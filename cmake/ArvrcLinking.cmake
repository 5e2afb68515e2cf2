# How arvrc's programs link MLIR and LLVM.
#
# Default: against Debian's shared libMLIR.so and libLLVM.so (quick links,
# one copy of every MLIR registry). With ARVRC_STATIC=ON: against the static
# archives, so that the binary runs on a machine without MLIR (the GPU
# machine). MLIR's own CMake targets would drag in the LLVM dylib, so the
# static link names the archives itself.

if(ARVRC_STATIC)
  file(GLOB ARVRC_MLIR_ARCHIVES "${ARVRC_LLVM_ROOT}/lib/libMLIR*.a")
  execute_process(
    COMMAND ${ARVRC_LLVM_ROOT}/bin/llvm-config --link-static --libfiles
    OUTPUT_VARIABLE ARVRC_LLVM_ARCHIVES OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(ARVRC_LLVM_ARCHIVES)
  # llvm-config names archives of optional packages (Polly) that may be
  # absent; link what is installed.
  list(FILTER ARVRC_LLVM_ARCHIVES INCLUDE REGEX ".")
  set(_present)
  foreach(archive IN LISTS ARVRC_LLVM_ARCHIVES)
    if(EXISTS "${archive}")
      list(APPEND _present "${archive}")
    endif()
  endforeach()
  set(ARVRC_LLVM_ARCHIVES ${_present})
  find_library(ARVRC_ZSTD_STATIC NAMES libzstd.a REQUIRED)
  find_library(ARVRC_Z_STATIC NAMES libz.a REQUIRED)
endif()

# Links `target` against all of MLIR and LLVM.
function(arvrc_link_mlir target)
  if(ARVRC_STATIC)
    target_link_libraries(${target} PRIVATE
      -Wl,--start-group ${ARVRC_MLIR_ARCHIVES} ${ARVRC_LLVM_ARCHIVES} -Wl,--end-group
      ${ARVRC_ZSTD_STATIC} ${ARVRC_Z_STATIC}
      -static-libstdc++ -static-libgcc -Wl,--gc-sections -Wl,--as-needed
      pthread dl m rt)
  else()
    target_link_libraries(${target} PRIVATE MLIR LLVM)
  endif()
endfunction()

# Links `target` (the runtime library) against LLVMSupport alone, for
# llvm::json and file reading: Debian's libLLVM.so by default; with
# ARVRC_STATIC, the archives (built position-independent), so that the
# library needs no LLVM where it runs.
function(arvrc_link_llvm_support target)
  if(ARVRC_STATIC)
    target_link_libraries(${target} PRIVATE
      ${ARVRC_LLVM_ROOT}/lib/libLLVMSupport.a
      ${ARVRC_LLVM_ROOT}/lib/libLLVMDemangle.a
      ${ARVRC_ZSTD_STATIC} ${ARVRC_Z_STATIC} pthread dl m rt)
  else()
    target_link_libraries(${target} PRIVATE LLVM)
  endif()
endfunction()
