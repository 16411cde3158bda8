// Concurrent label-guided BFS for a batch of 64*W queries (docs/ALGORITHMS.md, section 16).
//
// Per vertex, W 64-bit words say which queries' frontiers hold it (`cur`), will hold it next
// (`next`), or have ever held it (`visited`). Expanding a frontier vertex x, each query bit q of x
// moves to a child c only if L(dst_q) ⊆ L(c); reaching dst_q answers q, whose bit is then dropped
// everywhere at once (`answered`). Frontier vertices sit in three queues by out-degree (a thread, a
// warp or a block per vertex). Blocks loop over their queue so the batch's destinations are loaded
// into shared memory once per block.

typedef unsigned int u32;
typedef unsigned long long u64;

#define MAX_DIMS 8u
#define SMALL_LIMIT 32u
#define LARGE_LIMIT 256u

__device__ __forceinline__ u32 degree_class(u64 degree) {
    return degree < SMALL_LIMIT ? 0u : (degree <= LARGE_LIMIT ? 1u : 2u);
}

// Queues the vertex for the next level once (stamp = this level's number + 1).
__device__ __forceinline__ void push_next(u32 c, const u64* coff, u32* queue_next, u32* counts, u32* stamp,
                                          u32 level_stamp, u32 n) {
    if (atomicExch(&stamp[c], level_stamp) == level_stamp) return;
    u32 cls = degree_class(coff[c + 1] - coff[c]);
    queue_next[cls * n + atomicAdd(&counts[cls], 1u)] = c;
}

// The batch's sources start their frontiers.
extern "C" __global__ void search_seed(const u32* src, u32 queries, u32 words, const u64* coff, u64* cur,
                                       u64* visited, u32* queue_next, u32* counts, u32* stamp, u32 level_stamp,
                                       u32 n) {
    u32 q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= queries) return;
    u32 s = src[q];
    u64 bit = 1ull << (q % 64);
    atomicOr(&cur[(u64)s * words + q / 64], bit);
    atomicOr(&visited[(u64)s * words + q / 64], bit);
    push_next(s, coff, queue_next, counts, stamp, level_stamp, n);
}

// One frontier level. `group` threads share a vertex (1, 32 or blockDim.x); blocks stride over the
// queue. Shared memory: dst[queries], then the destinations' intervals, dims per query.
// Beside the label filter, a child c whose DFS subtree holds dst_q in some dimension (the tree cut
// of the CPU's rules, applied to c) answers q at once: exact, and it saves the levels between c and
// dst_q. `subtree` is vertex-major, dims per vertex, like `intervals`.
extern "C" __global__ void search_expand(const u32* queue, u32 count, u32 group, u32 words, u32 dims, u32 queries,
                                         const u32* dst, const u32* intervals, const u32* subtree, const u64* coff,
                                         const u32* cadj,
                                         u64* cur, u64* next, u64* visited, u64* answered, u32* queue_next,
                                         u32* counts, u32* stamp, u32 level_stamp, u32 n) {
    extern __shared__ u32 shared[];
    u32* s_dst = shared;
    u32* s_label = shared + queries;  // (low, post) pairs, dims per query
    for (u32 i = threadIdx.x; i < queries; i += blockDim.x) {
        u32 d = dst[i];
        s_dst[i] = d;
        for (u32 k = 0; k < dims; k++) {
            s_label[(i * dims + k) * 2] = intervals[((u64)d * dims + k) * 2];
            s_label[(i * dims + k) * 2 + 1] = intervals[((u64)d * dims + k) * 2 + 1];
        }
    }
    __syncthreads();
    u32 groups_per_block = blockDim.x / group;
    u32 lane = threadIdx.x % group;
    for (u32 item = blockIdx.x * groups_per_block + threadIdx.x / group; item < count;
         item += gridDim.x * groups_per_block) {
        u32 x = queue[item];
        for (u32 w = 0; w < words; w++) {
            u64 bits = cur[(u64)x * words + w] & ~answered[w];
            if (bits == 0) continue;
            for (u64 e = coff[x] + lane; e < coff[x + 1]; e += group) {
                u32 c = cadj[e];
                // c's labels, read once for all the queries at x.
                u32 clo[MAX_DIMS], cpo[MAX_DIMS], csize[MAX_DIMS];
#pragma unroll
                for (u32 k = 0; k < MAX_DIMS; k++) {
                    if (k < dims) {
                        clo[k] = intervals[((u64)c * dims + k) * 2];
                        cpo[k] = intervals[((u64)c * dims + k) * 2 + 1];
                        csize[k] = subtree[(u64)c * dims + k];
                    }
                }
                u64 keep = 0, found = 0;
                u64 rest = bits;
                while (rest) {
                    u32 b = __ffsll((long long)rest) - 1;
                    rest &= rest - 1;
                    u32 q = w * 64 + b;
                    bool inside = true, below = c == s_dst[q];
#pragma unroll
                    for (u32 k = 0; k < MAX_DIMS; k++) {
                        if (k < dims) {
                            u32 lo = s_label[(q * dims + k) * 2], po = s_label[(q * dims + k) * 2 + 1];
                            inside = inside && clo[k] <= lo && po <= cpo[k];
                            below = below || (cpo[k] - csize[k] < po && po <= cpo[k]);
                        }
                    }
                    if (below) {
                        found |= 1ull << b;
                    } else if (inside) {
                        keep |= 1ull << b;
                    }
                }
                if (found) atomicOr(&answered[w], found);
                if (keep == 0) continue;
                u64 fresh = keep & ~visited[(u64)c * words + w];
                if (fresh == 0) continue;
                fresh &= ~atomicOr(&visited[(u64)c * words + w], fresh);
                if (fresh == 0) continue;
                atomicOr(&next[(u64)c * words + w], fresh);
                push_next(c, coff, queue_next, counts, stamp, level_stamp, n);
            }
        }
        // Every lane of the group has read x's words before they are cleared for reuse.
        if (group == 32) __syncwarp();
        if (group > 32) __syncthreads();
        if (lane == 0)
            for (u32 w = 0; w < words; w++) cur[(u64)x * words + w] = 0;
    }
}
