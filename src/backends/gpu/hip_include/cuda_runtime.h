// On the include path of the AMD HIP build only (src/backends/gpu/CMakeLists.txt):
// a GPU source that includes <cuda_runtime.h> gets the portability header,
// which maps CUDA's runtime names onto HIP's. New code includes
// backends/gpu/portability.hpp itself.
#pragma once
#include "backends/gpu/portability.hpp"
