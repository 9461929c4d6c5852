// Per-frame work of the CIEDE2000 feature: the sum of the per-pixel colour
// differences of two pictures, in upstream's raster order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "features/ciede/ciede_color.hpp"
#include "features/ciede/ciede_kernels.hpp"
#include "features/ciede/ciede_upsample.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::ciede {

/// Memo of yuv_to_lab() (a pure function of the sample triple and bit
/// depth): direct-mapped, 2^16 entries. Not thread-safe; one per thread.
class LabCache {
public:
    LabCache();
    Lab get(unsigned y, unsigned u, unsigned v, unsigned bpc);

private:
    struct Entry {
        std::uint64_t key;  ///< 0: empty
        Lab lab;
    };
    std::vector<Entry> entries_;
};

/// One row of 4:4:4 samples of each picture (w samples per component).
struct RowPair {
    const std::uint16_t *ry, *ru, *rv, *dy, *du, *dv;
};

/// Working storage of row_sum (the differing pixels' colours as columns).
struct RowScratch {
    std::vector<float> cols[6], de;
};

/// Adds delta_e2000 of every pixel of the row to `sum`, left to right, in
/// double (upstream's accumulation order); pixels whose three samples are
/// equal add exactly +0 and are skipped.
double row_sum(const CiedeKernels& k, const RowPair& row, unsigned w, unsigned bpc, LabCache& cache,
               RowScratch& scratch, double sum);

/// Sum of delta_e2000 over every luma position of the pair (4:4:4 samples as
/// upstream forms them, see ChromaUpsampler), rows top to bottom.
double frame_sum(const CiedeKernels& k, const Picture& ref, const Picture& dist, const ChromaUpsampler* upsampler);

}  // namespace vmaf::ciede
