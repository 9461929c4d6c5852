/* libvmaf.so.3 is the `vmaf` archive linked whole; a shared library target
 * needs at least one source of its own. */
typedef int vmaf_shared_library_unit;
