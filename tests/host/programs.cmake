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

if(TARGET test_host)
  if(LOCKSTEP_NVCC)
    foreach(p vector_add constant_memory faulting_kernel unsupported_api)
      lockstep_host_program(${p} ${p}.cu -cudart shared -arch=sm_80)
    endforeach()
    lockstep_host_program(vector_add_static vector_add.cu -arch=sm_80)
    lockstep_host_program(vector_add_sass_only vector_add.cu -cudart shared -gencode arch=compute_80,code=sm_80)
    add_custom_target(host_programs DEPENDS ${HOST_PROGRAMS})
    add_dependencies(test_host host_programs)
    target_compile_definitions(test_host PRIVATE LOCKSTEP_HOST_PROGRAMS="${HOST_PROGRAM_DIR}")
  endif()
  add_dependencies(test_host lockstep)
  target_compile_definitions(test_host PRIVATE LOCKSTEP_BINARY="$<TARGET_FILE:lockstep>")
endif()
