// GRAIL labels on the GPU: the four phases of GUIDE.md section 2, level-synchronous, mirroring the
// CPU pipeline (src/index/pipeline). Compiled at run time by NVRTC (src/gpu/context.rs).
//
// Every level's frontier lives in three queues by the degree the kernel scans: small (< 32, a
// thread per vertex), medium (32..256, a warp per vertex) and large (> 256, a block per vertex).
// Queues are built by atomic appends while the previous level releases its children: the Kahn
// levels do not depend on the order, so they are built once (dimension 0) and replayed for the
// others. `bins_in` holds each level by in-degree (parent selection reads parents), `bins_out` by
// out-degree (release and min-post read children); class c of the whole run lives at c * n.

typedef unsigned int u32;
typedef unsigned long long u64;

#define SMALL_LIMIT 32u
#define LARGE_LIMIT 256u
#define NONE 0xffffffffu

// One vertex of the DFS tree T being built: T-parent, depth (the virtual root rho has 0), a
// skew-binary jump pointer (an ancestor; lets level-ancestor queries take O(log depth) steps) and
// the vertex's order key in this dimension (ranks in every ordered list compare by key).
struct Node {
    u32 parent;
    u32 depth;
    u32 jump;
    u32 key;
};

__device__ __forceinline__ u32 degree_class(u64 degree) {
    return degree < SMALL_LIMIT ? 0u : (degree <= LARGE_LIMIT ? 1u : 2u);
}

// ---------------------------------------------------------------------------------------------
// Setup

extern "C" __global__ void init_dimension(Node* tree, const u32* key, const u64* poff, u32* pending,
                                          u32* size, u32* offset, u32 n) {
    u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        tree[v].parent = NONE;
        tree[v].depth = 0;
        tree[v].jump = NONE;
        tree[v].key = key[v];
        pending[v] = (u32)(poff[v + 1] - poff[v]);
        size[v] = 1;
        offset[v] = 0;
    } else if (v == n) {
        tree[n].parent = n;  // rho
        tree[n].depth = 0;
        tree[n].jump = n;
        tree[n].key = 0;
    }
}

// Appends c to the next level's queues. counters: 3 counts by in-degree class, 3 by out-degree
// class, then the level's in-degree and out-degree sums (the edges phases 1 and 4 will scan).
__device__ __forceinline__ void enqueue(u32 c, const u64* poff, const u64* coff, u32* bins_in, u32* bins_out,
                                        u64* counters, const u32* base, u32 n, u32* level, u32 next_level) {
    level[c] = next_level;
    u64 in_degree = poff[c + 1] - poff[c];
    u64 out_degree = coff[c + 1] - coff[c];
    u32 ci = degree_class(in_degree);
    u32 co = degree_class(out_degree);
    bins_in[ci * n + base[ci] + (u32)atomicAdd(&counters[ci], 1ull)] = c;
    bins_out[co * n + base[3 + co] + (u32)atomicAdd(&counters[3 + co], 1ull)] = c;
    atomicAdd(&counters[6], in_degree);
    atomicAdd(&counters[7], out_degree);
}

// Level 0: every vertex without parents.
extern "C" __global__ void seed_roots(const u64* poff, const u64* coff, u32* bins_in, u32* bins_out,
                                      u64* counters, const u32* base, u32 n, u32* level) {
    u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && poff[v + 1] == poff[v]) enqueue(v, poff, coff, bins_in, bins_out, counters, base, n, level, 0);
}

// ---------------------------------------------------------------------------------------------
// Phase 1: parent selection (top-down over Kahn levels)

// The ancestor of x at depth d (x's depth >= d).
__device__ __forceinline__ u32 ancestor_at(const Node* T, u32 x, u32 d) {
    while (T[x].depth > d) {
        u32 j = T[x].jump;
        x = (T[j].depth >= d) ? j : T[x].parent;
    }
    return x;
}

// Is the candidate (path(p1), rank of v) lexicographically smaller than (path(p2), rank of v)?
// kv is v's key. p1 and p2 are final tree vertices (their whole T-path is known).
__device__ bool precedes(const Node* T, u32 p1, u32 p2, u32 kv) {
    if (p1 == p2) return false;
    u32 d1 = T[p1].depth, d2 = T[p2].depth;
    if (d1 > d2) {
        u32 c = ancestor_at(T, p1, d2 + 1);
        if (T[c].parent == p2) return T[c].key < kv;  // p2 is an ancestor of p1
        p1 = T[c].parent;
    } else if (d2 > d1) {
        u32 c = ancestor_at(T, p2, d1 + 1);
        if (T[c].parent == p1) return kv < T[c].key;  // p1 is an ancestor of p2
        p2 = T[c].parent;
    }
    // Same depth, different vertices: climb in lock step to the two children of the LCA. Jump
    // targets depend on depth alone, so equal jumps mean the LCA is at or below them.
    while (T[p1].parent != T[p2].parent) {
        u32 j1 = T[p1].jump, j2 = T[p2].jump;
        if (j1 != j2) {
            p1 = j1;
            p2 = j2;
        } else {
            p1 = T[p1].parent;
            p2 = T[p2].parent;
        }
    }
    return T[p1].key < T[p2].key;
}

__device__ __forceinline__ u32 better(const Node* T, u32 a, u32 b, u32 kv) {
    if (a == NONE) return b;
    if (b == NONE) return a;
    return precedes(T, a, b, kv) ? a : b;
}

// Makes `parent` v's T-parent and sets depth and the skew-binary jump pointer (Myers 1983).
__device__ __forceinline__ void attach(Node* T, u32 v, u32 parent) {
    u32 j = T[parent].jump;
    u32 jj = T[j].jump;
    u32 jump = (T[parent].depth - T[j].depth == T[j].depth - T[jj].depth) ? jj : parent;
    T[v].parent = parent;
    T[v].depth = T[parent].depth + 1;
    T[v].jump = jump;
}

extern "C" __global__ void select_small(const u32* queue, u32 count, const u64* poff, const u32* padj, Node* T,
                                        u32 rho) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    u32 v = queue[i];
    u64 start = poff[v], end = poff[v + 1];
    if (start == end) {
        attach(T, v, rho);
        return;
    }
    u32 kv = T[v].key;
    u32 best = padj[start];
    for (u64 e = start + 1; e < end; e++) best = better(T, padj[e], best, kv);
    attach(T, v, best);
}

__device__ __forceinline__ u32 warp_best(const Node* T, u32 best, u32 kv) {
    for (int off = 16; off > 0; off >>= 1) {
        u32 other = __shfl_down_sync(0xffffffffu, best, off);
        best = better(T, other, best, kv);
    }
    return best;
}

// A warp per vertex; blockDim.x is a multiple of 32.
extern "C" __global__ void select_warp(const u32* queue, u32 count, const u64* poff, const u32* padj, Node* T,
                                       u32 rho) {
    u32 i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    u32 lane = threadIdx.x % 32;
    if (i >= count) return;  // whole warps leave together
    u32 v = queue[i];
    u32 kv = T[v].key;
    u32 best = NONE;
    for (u64 e = poff[v] + lane; e < poff[v + 1]; e += 32) best = better(T, padj[e], best, kv);
    best = warp_best(T, best, kv);
    if (lane == 0) attach(T, v, best);
}

// A block per vertex; blockDim.x is a multiple of 32, at most 1024.
extern "C" __global__ void select_block(const u32* queue, u32 count, const u64* poff, const u32* padj, Node* T,
                                        u32 rho) {
    __shared__ u32 warp_bests[32];
    u32 v = queue[blockIdx.x];
    u32 kv = T[v].key;
    u32 best = NONE;
    for (u64 e = poff[v] + threadIdx.x; e < poff[v + 1]; e += blockDim.x) best = better(T, padj[e], best, kv);
    best = warp_best(T, best, kv);
    if (threadIdx.x % 32 == 0) warp_bests[threadIdx.x / 32] = best;
    __syncthreads();
    if (threadIdx.x < 32) {
        best = threadIdx.x < blockDim.x / 32 ? warp_bests[threadIdx.x] : NONE;
        best = warp_best(T, best, kv);
        if (threadIdx.x == 0) attach(T, v, best);
    }
}

// Release: each vertex of the level takes one from its children's pending-parent counts; a child
// whose last parent this was is ready and joins the next level's queues. Queue by out-degree.
extern "C" __global__ void release_small(const u32* queue, u32 count, const u64* poff, const u64* coff,
                                         const u32* cadj, u32* pending, u32* bins_in, u32* bins_out, u64* counters,
                                         const u32* base, u32 n, u32* level, u32 next_level) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    u32 v = queue[i];
    for (u64 e = coff[v]; e < coff[v + 1]; e++) {
        u32 c = cadj[e];
        if (atomicSub(&pending[c], 1u) == 1u) enqueue(c, poff, coff, bins_in, bins_out, counters, base, n, level, next_level);
    }
}

extern "C" __global__ void release_wide(const u32* queue, u32 count, u32 vertices_per_block, const u64* poff,
                                        const u64* coff, const u32* cadj, u32* pending, u32* bins_in, u32* bins_out,
                                        u64* counters, const u32* base, u32 n, u32* level, u32 next_level) {
    // vertices_per_block = 1: a block per vertex; = blockDim.x / 32: a warp per vertex.
    u32 group = blockDim.x / vertices_per_block;
    u32 i = blockIdx.x * vertices_per_block + threadIdx.x / group;
    u32 lane = threadIdx.x % group;
    if (i >= count) return;
    u32 v = queue[i];
    for (u64 e = coff[v] + lane; e < coff[v + 1]; e += group) {
        u32 c = cadj[e];
        if (atomicSub(&pending[c], 1u) == 1u) enqueue(c, poff, coff, bins_in, bins_out, counters, base, n, level, next_level);
    }
}

// ---------------------------------------------------------------------------------------------
// Phase 2: T subtree sizes (bottom-up over Kahn levels). Every T-edge is a DAG edge, so a vertex's
// T-descendants all lie on deeper Kahn levels: when its level comes, its size is complete, and
// it adds it to its T-parent's.

extern "C" __global__ void push_sizes(const u32* queue, u32 count, const Node* T, u32* size, u32 rho) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    u32 v = queue[i];
    u32 p = T[v].parent;
    if (p != rho) atomicAdd(&size[p], size[v]);
}

// ---------------------------------------------------------------------------------------------
// Phase 3: post-order (top-down over Kahn levels): offset(c) = offset(v) + before(c), where
// before(c) sums the sizes of c's T-siblings that precede it (smaller key). Roots' offsets (the
// children of rho, a prefix sum in root order) are set by the host before this phase.

extern "C" __global__ void post_order(const u32* queue, u32 count, const Node* T, const u64* coff, const u32* cadj,
                                      const u32* size, u32* offset, u32* post, u32 rho) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    u32 v = queue[i];
    u32 p = T[v].parent;
    if (p != rho) {
        u32 kv = T[v].key;
        u32 before = 0;
        for (u64 e = coff[p]; e < coff[p + 1]; e++) {
            u32 c = cadj[e];
            if (T[c].parent == p && T[c].key < kv) before += size[c];
        }
        offset[v] = offset[p] + before;
    }
    post[v] = offset[v] + size[v];
}

// ---------------------------------------------------------------------------------------------
// Phase 4: min-post (bottom-up over Kahn levels): low(v) = min(post(v), min low(c) over children).

extern "C" __global__ void min_post_small(const u32* queue, u32 count, const u64* coff, const u32* cadj,
                                          const u32* post, u32* low) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    u32 v = queue[i];
    u32 m = post[v];
    for (u64 e = coff[v]; e < coff[v + 1]; e++) m = min(m, low[cadj[e]]);
    low[v] = m;
}

extern "C" __global__ void min_post_wide(const u32* queue, u32 count, u32 vertices_per_block, const u64* coff,
                                         const u32* cadj, const u32* post, u32* low) {
    __shared__ u32 warp_mins[32];
    u32 group = blockDim.x / vertices_per_block;
    u32 i = blockIdx.x * vertices_per_block + threadIdx.x / group;
    u32 lane = threadIdx.x % group;
    u32 v = i < count ? queue[i] : 0;
    u32 m = 0xffffffffu;
    if (i < count) {
        for (u64 e = coff[v] + lane; e < coff[v + 1]; e += group) m = min(m, low[cadj[e]]);
    }
    m = __reduce_min_sync(0xffffffffu, m);
    if (vertices_per_block > 1) {  // a warp per vertex
        if (lane == 0 && i < count) low[v] = min(m, post[v]);
        return;
    }
    if (threadIdx.x % 32 == 0) warp_mins[threadIdx.x / 32] = m;
    __syncthreads();
    if (threadIdx.x < 32) {
        m = threadIdx.x < blockDim.x / 32 ? warp_mins[threadIdx.x] : 0xffffffffu;
        m = __reduce_min_sync(0xffffffffu, m);
        if (threadIdx.x == 0) low[v] = min(m, post[v]);
    }
}
