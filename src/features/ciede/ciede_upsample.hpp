// Upstream ciede converts 4:2:0 / 4:2:2 pictures to 4:4:4 before the colour
// maths, with an index formula that is not a plain nearest-neighbour
// upsampling, and reads its chroma planes as flat buffers:
//
//  * upstream's chroma plane has floor(w/2) x (h or floor(h/2)) samples, rows
//    `S` = that width rounded up to 32 samples apart, the padding zero;
//  * output row i reads plane row floor(i/2) for 4:2:0 *and* 4:2:2;
//  * output column j reads flat position j/2 (4:2:0) or j (4:2:2) of that row,
//    so with 4:2:2 columns past the plane width run through the padding into
//    the following rows;
//  * a read past the last row of U continues in V (the planes are adjacent);
//    past V it is outside upstream's allocation, taken as zero here.
//
// For even widths 4:2:0 is plain nearest-neighbour; 4:2:2 (any size) and odd
// sizes follow the flat reads above, which makes odd sizes equal upstream run
// on the floor-chroma files its CLI reads (testdata/README.md).
#pragma once

#include <cstdint>
#include <vector>

#include "vmaf/picture.hpp"

namespace vmaf::ciede {

class ChromaUpsampler {
public:
    /// For a 4:2:0 or 4:2:2 picture of w x h luma samples.
    ChromaUpsampler(PixelFormat fmt, unsigned w, unsigned h);

    /// Upstream's 4:4:4 U (`plane` 1) or V (2) row `i` of `pic` into `out`
    /// (w samples).
    void row(const Picture& pic, unsigned plane, unsigned i, std::uint16_t* out) const;

private:
    std::uint32_t flat_sample(const Picture& pic, unsigned plane, std::uint64_t k) const;

    bool horizontal_half_;  ///< 4:2:0: column j reads flat j/2
    unsigned w_, wc_, hc_, stride_;
};

}  // namespace vmaf::ciede
