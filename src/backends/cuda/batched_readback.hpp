// Per-frame results that a twin's kernels write on its ordered stream, read
// back several frames at a time. Under batched dispatch two halves take turns:
// when the filling half is full, its readback is queued and the other half,
// read back a batch earlier, is handed over, so the ordered stage waits at
// most for a copy queued a batch ago, not for the device's current work.
// Under serial dispatch each frame is read back and handed over at once.
// Used by the twins whose per-frame work depends on the frame before
// (motion, float_motion, speed_temporal).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "backends/cuda/cuda_util.hpp"
#include "backends/cuda/dispatch.hpp"

namespace vmaf::cuda {

template <typename T>
class BatchedReadback {
public:
    /// Frames a readback holds under batched dispatch.
    static constexpr unsigned kBatch = 8;

    /// `per_frame`: elements of T a frame writes.
    BatchedReadback(std::size_t per_frame, Dispatch mode)
        : per_(per_frame),
          batch_(mode == Dispatch::Batched ? kBatch : 1),
          overlap_(mode == Dispatch::Batched),
          dev_(2 * kBatch * per_frame * sizeof(T)),
          host_(2 * kBatch * per_frame * sizeof(T)) {}

    /// Frames a readback holds.
    unsigned batch() const { return batch_; }
    /// The next frame is the first of its half: its half's area (area(), batch() frames) is not yet written.
    bool fresh() const { return half_[fill_].frames.empty(); }
    /// Device area of the filling half (batch() frames).
    T* area() const { return dev_.template get<T>() + std::size_t{fill_} * kBatch * per_; }
    /// Device results of the next frame.
    T* next() const { return area() + half_[fill_].frames.size() * per_; }

    /// Frame `index` wrote next() (kernels enqueued on `s`). When its half is
    /// full, queues the half's readback on `s` and calls done(frames, host)
    /// for the frames read back: their indices in order and their results,
    /// per_frame apart.
    template <typename Done>
    void add(unsigned index, cudaStream_t s, Done&& done) {
        half_[fill_].frames.push_back(index);
        if (half_[fill_].frames.size() < batch_) return;
        read_back(fill_, s);
        if (overlap_) fill_ ^= 1;
        complete(fill_, done);
    }

    /// Reads back and hands over every frame still held, in frame order.
    template <typename Done>
    void flush(cudaStream_t s, Done&& done) {
        if (!half_[fill_].frames.empty()) read_back(fill_, s);
        complete(fill_ ^ 1, done);  // the older half first
        complete(fill_, done);
    }

private:
    struct Half {
        std::vector<unsigned> frames;  ///< slot k of the half: the k-th
        Event read;                    ///< recorded after the half's readback
    };

    void read_back(unsigned k, cudaStream_t s) {
        const std::size_t at = std::size_t{k} * kBatch * per_;
        check(cudaMemcpyAsync(host_.template get<T>() + at, dev_.template get<T>() + at,
                              half_[k].frames.size() * per_ * sizeof(T), cudaMemcpyDeviceToHost, s),
              "readback");
        check(cudaEventRecord(half_[k].read.get(), s), "cudaEventRecord");
    }

    template <typename Done>
    void complete(unsigned k, Done& done) {
        Half& h = half_[k];
        if (h.frames.empty()) return;
        check(cudaEventSynchronize(h.read.get()), "cudaEventSynchronize");
        done(std::span<const unsigned>(h.frames), host_.template get<T>() + std::size_t{k} * kBatch * per_);
        h.frames.clear();
    }

    const std::size_t per_;
    const unsigned batch_;
    const bool overlap_;
    DeviceBuffer dev_;
    PinnedBuffer host_;
    Half half_[2];
    unsigned fill_ = 0;  ///< the half taking frames
};

}  // namespace vmaf::cuda
