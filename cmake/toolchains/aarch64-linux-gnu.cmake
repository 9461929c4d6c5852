# Cross-compilation to aarch64 with Debian's cross g++ and multiarch arm64
# -dev packages (scripts/test-aarch64.sh installs them); tests run under qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The arm64 libraries are installed multiarch under /, so the emulator's root is /.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L /)
