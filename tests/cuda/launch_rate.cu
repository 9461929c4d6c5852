// How fast one context takes kernel launches from N threads, each on its own
// stream: "frames" of 9 empty kernels whose pointer argument changes every
// frame, by four ways of submitting them:
//
//   plain   9 launches
//   graph   one captured 9-kernel graph launched as is (arguments fixed: the floor)
//   update  the frame captured again, cudaGraphExecUpdate, then cudaGraphLaunch
//   setp    cudaGraphExecKernelNodeSetParams on the 9 nodes, then cudaGraphLaunch
//
// Prints frames of 9 a second per way and thread count: how much of a frame's
// host time launches cost, and whether graphs would hide it.
//
//   cuda_launch_rate [SECONDS_PER_ROW]
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr int kKernels = 9;

__global__ void touch(int* p, int v) {
    if (p && threadIdx.x == 1024) *p = v;  // never taken (256 threads): the launch alone is measured
}

void need(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    std::fprintf(stderr, "cuda_launch_rate: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
}

enum Way { Plain, Graph, Update, SetParams };
const char* const kWay[] = {"plain", "graph", "update", "setp"};

/// One thread's loop: frames submitted on its own stream until `stop`.
long frames_until(Way way, int thread, int* dev, const std::atomic<bool>& stop) {
    cudaStream_t s;
    need(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    cudaEvent_t e;
    need(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
    auto arg = [&](long frame, int k) { return dev + (frame % 32) * kKernels + k; };
    auto capture = [&](long frame) {
        cudaGraph_t g;
        need(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "capture");
        for (int k = 0; k < kKernels; ++k) touch<<<64, 256, 0, s>>>(arg(frame, k), k);
        need(cudaStreamEndCapture(s, &g), "end capture");
        return g;
    };
    cudaGraphExec_t exec = nullptr;
    std::vector<cudaGraphNode_t> nodes(kKernels);
    if (way != Plain) {
        cudaGraph_t g = capture(thread);
        need(cudaGraphInstantiate(&exec, g, 0), "instantiate");
        std::size_t n = kKernels;
        need(cudaGraphGetNodes(g, nodes.data(), &n), "nodes");
        need(cudaGraphDestroy(g), "destroy");
    }
    long frames = 0;
    while (!stop.load(std::memory_order_relaxed)) {
        const long f = frames + thread;
        if (way == Plain) {
            for (int k = 0; k < kKernels; ++k) touch<<<64, 256, 0, s>>>(arg(f, k), k);
        } else {
            if (way == Update) {
                cudaGraph_t g = capture(f);
                cudaGraphExecUpdateResultInfo info;
                need(cudaGraphExecUpdate(exec, g, &info), "update");
                need(cudaGraphDestroy(g), "destroy");
            } else if (way == SetParams) {
                for (int k = 0; k < kKernels; ++k) {
                    int* p = arg(f, k);
                    int v = k;
                    void* args[] = {&p, &v};
                    cudaKernelNodeParams kp{};
                    kp.func = reinterpret_cast<void*>(touch);
                    kp.gridDim = 64;
                    kp.blockDim = 256;
                    kp.kernelParams = args;
                    need(cudaGraphExecKernelNodeSetParams(exec, nodes[k], &kp), "set params");
                }
            }
            need(cudaGraphLaunch(exec, s), "graph launch");
        }
        need(cudaEventRecord(e, s), "record");  // as a twin records its frame's end
        if (++frames % 64 == 0) need(cudaStreamSynchronize(s), "sync");
    }
    need(cudaStreamSynchronize(s), "sync");
    if (exec) cudaGraphExecDestroy(exec);
    cudaEventDestroy(e);
    cudaStreamDestroy(s);
    return frames;
}

}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 0.7;
    need(cudaFree(nullptr), "context");
    int* dev = nullptr;
    need(cudaMalloc(&dev, 32 * kKernels * sizeof(int)), "cudaMalloc");
    for (Way way : {Plain, Graph, Update, SetParams})
        for (int n : {1, 4, 8, 16}) {
            std::atomic<long> total{0};
            std::atomic<bool> stop{false};
            std::vector<std::thread> ts;
            for (int t = 0; t < n; ++t) ts.emplace_back([&, t] { total += frames_until(way, t, dev, stop); });
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
            stop = true;
            for (auto& t : ts) t.join();
            std::printf("%-6s threads %2d: %8.0f frames of %d kernels a second\n", kWay[way], n, total.load() / seconds,
                        kKernels);
        }
    cudaFree(dev);
}
