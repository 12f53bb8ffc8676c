# CUDA host programs for the host tests, built with the toolkit's nvcc (skipped without it).
# Included from tests/CMakeLists.txt after lockstep_room_test(host).
find_program(LOCKSTEP_NVCC nvcc HINTS /usr/local/cuda/bin)
set(HOST_PROGRAM_DIR ${CMAKE_CURRENT_BINARY_DIR}/host_programs)
set(HOST_PROGRAM_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/host/programs)
set(HOST_PROGRAMS)
# name, source, nvcc flags...
function(lockstep_host_program name source)
  add_custom_command(
    OUTPUT ${HOST_PROGRAM_DIR}/${name}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${HOST_PROGRAM_DIR}
    COMMAND ${LOCKSTEP_NVCC} ${ARGN} -o ${HOST_PROGRAM_DIR}/${name} ${HOST_PROGRAM_SOURCES}/${source}
    DEPENDS ${HOST_PROGRAM_SOURCES}/${source}
    COMMENT "nvcc ${name}")
  set(HOST_PROGRAMS ${HOST_PROGRAMS} ${HOST_PROGRAM_DIR}/${name} PARENT_SCOPE)
endfunction()

# name, one or more sources compiled into one binary, then FLAGS and nvcc flags...
function(lockstep_host_program_from name)
  cmake_parse_arguments(PARSE_ARGV 1 P "" "" "SOURCES;FLAGS")
  list(TRANSFORM P_SOURCES PREPEND ${HOST_PROGRAM_SOURCES}/)
  add_custom_command(
    OUTPUT ${HOST_PROGRAM_DIR}/${name}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${HOST_PROGRAM_DIR}
    COMMAND ${LOCKSTEP_NVCC} ${P_FLAGS} -o ${HOST_PROGRAM_DIR}/${name} ${P_SOURCES}
    DEPENDS ${P_SOURCES}
    COMMENT "nvcc ${name}")
  set(HOST_PROGRAMS ${HOST_PROGRAMS} ${HOST_PROGRAM_DIR}/${name} PARENT_SCOPE)
endfunction()

# Programs built once per architecture, as <name>_sm75, <name>_sm80 and <name>_sm90: the PTX
# lockstep loads differs per target (e.g. CUB and Thrust pick other code paths).
set(HOST_PROGRAM_ARCHES 75 80 90)
# Programs that need sm_80 or later (cp.async, mbarrier), built as <name>_sm80 and <name>_sm90.
set(HOST_SM80_PROGRAMS async_barriers)
set(HOST_MULTI_ARCH_PROGRAMS vector_add host_threads memory_pools graph_conditionals constant_memory faulting_kernel streams_events dynamic_shared pinned_memory zero_copy stream_priorities templates device_printf thrust_ops cub_ops textures managed_memory pitched_2d kmeans cuda_graphs grid_sync device_heap)
# Issue 11's PTX constructs: kernel-parameter addresses, tiles wider than a warp (reserved shared memory).
list(APPEND HOST_MULTI_ARCH_PROGRAMS param_address tiled_partition)
# CUDA arrays in 3D: cudaMemcpy3D with arrays, layered and cubemap textures.
list(APPEND HOST_MULTI_ARCH_PROGRAMS array3d_textures)
# Graph memory nodes: allocation and free nodes, built explicitly and captured.
list(APPEND HOST_MULTI_ARCH_PROGRAMS graph_memory_nodes)
# Graph editing: capture into an existing graph (cudaStreamBeginCaptureToGraph), cudaGraphDestroyNode.
list(APPEND HOST_MULTI_ARCH_PROGRAMS graph_edit_capture)

if(TARGET test_host)
  if(LOCKSTEP_NVCC)
    foreach(p vector_add constant_memory faulting_kernel read_past_end unsupported_api unsupported_instruction device_query device_select)
      lockstep_host_program(${p} ${p}.cu -cudart shared -arch=sm_80)
    endforeach()
    lockstep_host_program(vector_add_static vector_add.cu -arch=sm_80)
    lockstep_host_program(per_thread_stream per_thread_stream.cu -cudart shared -arch=sm_80 --default-stream per-thread)
    # Graph node attributes, enabled state, clones, symbol copies and user objects; kernel handles
    # and array-to-array copies.
    lockstep_host_program(graph_node_state graph_node_state.cu -cudart shared -arch=sm_80)
    lockstep_host_program(kernel_handles kernel_handles.cu -cudart shared -arch=sm_80)
    # Code compiled at run time by NVRTC and loaded with cudaLibraryLoadData.
    lockstep_host_program(runtime_library runtime_library.cu -cudart shared -arch=sm_80 -lnvrtc)
    # The device runtime beyond launches: device-side cudaMalloc/cudaFree/cudaMemcpyAsync/cudaMemsetAsync.
    lockstep_host_program(cdp_device_runtime cdp_device_runtime.cu -rdc=true -cudart shared -arch=sm_80 -lcudadevrt)
    # A tree of 3001 grids launched from device code, beside one another in timing mode.
    lockstep_host_program(cdp_tree cdp_tree.cu -rdc=true -cudart shared -arch=sm_80 -lcudadevrt)
    # The driver API (libcuda.so.1: linked against the toolkit's stub, run on lockstep's stand-in).
    get_filename_component(LOCKSTEP_CUDA_BIN ${LOCKSTEP_NVCC} DIRECTORY)
    lockstep_host_program(driver_api driver_api.cu -cudart shared -arch=sm_80 -lnvrtc
                          -L${LOCKSTEP_CUDA_BIN}/../lib64/stubs -lcuda)
    lockstep_host_program(vector_add_sass_only vector_add.cu -cudart shared -gencode arch=compute_80,code=sm_80)
    foreach(arch ${HOST_PROGRAM_ARCHES})
      foreach(p ${HOST_MULTI_ARCH_PROGRAMS})
        lockstep_host_program_from(${p}_sm${arch} SOURCES ${p}.cu FLAGS -cudart shared -arch=sm_${arch})
      endforeach()
      # Whole-program mode: each translation unit carries its own fat binary.
      lockstep_host_program_from(two_units_sm${arch} SOURCES two_units_main.cu two_units_kernels.cu
                                 FLAGS -cudart shared -arch=sm_${arch})
      # Separate compilation: one device-linked fat binary, the units' PTX beside it.
      lockstep_host_program_from(rdc_units_sm${arch} SOURCES rdc_main.cu rdc_library.cu
                                 FLAGS -rdc=true -cudart shared -arch=sm_${arch})
      lockstep_host_program_from(dynamic_parallelism_sm${arch} SOURCES dynamic_parallelism.cu
                                 FLAGS -rdc=true -cudart shared -arch=sm_${arch} -lcudadevrt)
    endforeach()
    foreach(arch 80 90)
      foreach(p ${HOST_SM80_PROGRAMS})
        lockstep_host_program_from(${p}_sm${arch} SOURCES ${p}.cu FLAGS -cudart shared -arch=sm_${arch})
      endforeach()
    endforeach()
    # The same units built by a CMake project of its own with CUDA_SEPARABLE_COMPILATION ON.
    set(CMAKE_RDC_DIR ${CMAKE_CURRENT_BINARY_DIR}/cmake_rdc_project)
    add_custom_command(
      OUTPUT ${HOST_PROGRAM_DIR}/cmake_rdc_app
      COMMAND ${CMAKE_COMMAND} -S ${HOST_PROGRAM_SOURCES}/cmake_rdc -B ${CMAKE_RDC_DIR} -G "${CMAKE_GENERATOR}"
              -DCMAKE_CUDA_COMPILER=${LOCKSTEP_NVCC} -DCMAKE_CUDA_ARCHITECTURES=80 -DCMAKE_BUILD_TYPE=Release
      COMMAND ${CMAKE_COMMAND} --build ${CMAKE_RDC_DIR}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${HOST_PROGRAM_DIR}
      COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_RDC_DIR}/cmake_rdc_app ${HOST_PROGRAM_DIR}/cmake_rdc_app
      DEPENDS ${HOST_PROGRAM_SOURCES}/cmake_rdc/CMakeLists.txt ${HOST_PROGRAM_SOURCES}/rdc_main.cu
              ${HOST_PROGRAM_SOURCES}/rdc_library.cu ${HOST_PROGRAM_SOURCES}/rdc_shared.h
      COMMENT "cmake project cmake_rdc"
      VERBATIM)
    list(APPEND HOST_PROGRAMS ${HOST_PROGRAM_DIR}/cmake_rdc_app)
    add_custom_target(host_programs DEPENDS ${HOST_PROGRAMS})
    add_dependencies(test_host host_programs)
    target_compile_definitions(test_host PRIVATE LOCKSTEP_HOST_PROGRAMS="${HOST_PROGRAM_DIR}")
  endif()
  add_dependencies(test_host lockstep)
  target_compile_definitions(test_host PRIVATE LOCKSTEP_BINARY="$<TARGET_FILE:lockstep>")
endif()
