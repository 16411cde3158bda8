// GRAIL labels on the GPU (docs/ALGORITHMS.md, section 15): the four phases, level-synchronous, mirroring the
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
#define PREFIX 8u  // path steps kept per vertex (see `Prefix`)

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

extern "C" __global__ void init_dimension(Node* tree, u32* prefix, const u32* key, const u64* poff, u32* pending,
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
        for (u32 i = 0; i < PREFIX; i++) prefix[PREFIX * (u64)n + i] = NONE;  // rho's path is empty
    }
}

// The parents CSR from the children CSR (the host sends only the offsets, halving the upload):
// each edge u -> c takes the next free slot of c's list, counted in `cursor` (zeroed). Lists come
// out in no particular order, which parent selection's minimum does not depend on. A warp per u.
extern "C" __global__ void fill_parents(const u64* coff, const u32* cadj, const u64* poff, u32* cursor, u32* padj,
                                        u32 n) {
    u32 u = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    u32 lane = threadIdx.x % 32;
    if (u >= n) return;
    for (u64 e = coff[u] + lane; e < coff[u + 1]; e += 32) {
        u32 c = cadj[e];
        padj[poff[c] + atomicAdd(&cursor[c], 1u)] = u;
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

// The first PREFIX steps of every vertex's T-path: the keys of its ancestors at depths 1..PREFIX
// (itself included), NONE past its depth; two uint4 per vertex. Keys are distinct, so two paths
// part exactly where their prefixes first differ. DFS trees are bushy at the top (on a random DAG
// of 1M vertices and degree 50, 99% of the candidate pairs part within 8 steps), so most
// comparisons read two prefixes instead of climbing the tree; the rest fall back to `precedes`.

struct Prefix {
    u32 k[PREFIX];
};
static_assert(PREFIX == 8, "a prefix is read and written as two uint4");

__device__ __forceinline__ Prefix load_prefix(const u32* P, u32 v) {
    const uint4* q = reinterpret_cast<const uint4*>(P) + 2 * (u64)v;
    uint4 a = q[0], b = q[1];
    Prefix p = {{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w}};
    return p;
}

// 1 if candidate a (through the vertex with prefix pa) precedes candidate b, 0 if not, 2 if the
// prefixes agree (the paths part deeper). The vertices are distinct; kv is v's key.
__device__ __forceinline__ int prefix_precedes(const Prefix& pa, const Prefix& pb, u32 kv) {
#pragma unroll
    for (u32 i = 0; i < PREFIX; i++) {
        u32 a = pa.k[i], b = pb.k[i];
        if (a != b) {
            if (a == NONE) return kv < b;  // a is an ancestor of b
            if (b == NONE) return a < kv;  // b is an ancestor of a
            return a < b;
        }
    }
    return 2;
}

// Candidate p (prefix pp) against the best so far; replaces the best when p precedes it.
__device__ __forceinline__ void offer(const Node* T, u32 p, const Prefix& pp, u32& best, Prefix& bp, u32 kv) {
    if (best == NONE) {
        best = p;
        bp = pp;
        return;
    }
    if (p == best) return;
    int r = prefix_precedes(pp, bp, kv);
    if (r == 2) r = precedes(T, p, best, kv);
    if (r) {
        best = p;
        bp = pp;
    }
}

__device__ __forceinline__ u32 better(const Node* T, const u32* P, u32 a, u32 b, u32 kv) {
    if (a == NONE) return b;
    if (b == NONE) return a;
    Prefix bp = load_prefix(P, b);
    offer(T, a, load_prefix(P, a), b, bp, kv);
    return b;
}

// Makes `parent` v's T-parent and sets depth, the skew-binary jump pointer (Myers 1983) and the
// path prefix.
__device__ __forceinline__ void attach(Node* T, u32* P, u32 v, u32 parent) {
    u32 j = T[parent].jump;
    u32 jj = T[j].jump;
    u32 jump = (T[parent].depth - T[j].depth == T[j].depth - T[jj].depth) ? jj : parent;
    u32 depth = T[parent].depth + 1;
    T[v].parent = parent;
    T[v].depth = depth;
    T[v].jump = jump;
    Prefix p = load_prefix(P, parent);
#pragma unroll
    for (u32 i = 0; i < PREFIX; i++) {
        if (i + 1 == depth) p.k[i] = T[v].key;
    }
    uint4* q = reinterpret_cast<uint4*>(P) + 2 * (u64)v;
    q[0] = make_uint4(p.k[0], p.k[1], p.k[2], p.k[3]);
    q[1] = make_uint4(p.k[4], p.k[5], p.k[6], p.k[7]);
}

extern "C" __global__ void select_small(const u32* queue, u32 count, const u64* poff, const u32* padj, Node* T,
                                        u32* P, u32 rho) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    u32 v = queue[i];
    u64 start = poff[v], end = poff[v + 1];
    if (start == end) {
        attach(T, P, v, rho);
        return;
    }
    u32 kv = T[v].key;
    u32 best = NONE;
    Prefix bp;
    for (u64 e = start; e < end; e++) {
        u32 p = padj[e];
        offer(T, p, load_prefix(P, p), best, bp, kv);
    }
    attach(T, P, v, best);
}

__device__ __forceinline__ u32 warp_best(const Node* T, const u32* P, u32 best, u32 kv) {
    for (int off = 16; off > 0; off >>= 1) {
        u32 other = __shfl_down_sync(0xffffffffu, best, off);
        best = better(T, P, other, best, kv);
    }
    return best;
}

// A warp per vertex; blockDim.x is a multiple of 32.
extern "C" __global__ void select_warp(const u32* queue, u32 count, const u64* poff, const u32* padj, Node* T,
                                       u32* P, u32 rho) {
    u32 i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    u32 lane = threadIdx.x % 32;
    if (i >= count) return;  // whole warps leave together
    u32 v = queue[i];
    u32 kv = T[v].key;
    u32 best = NONE;
    Prefix bp;
    for (u64 e = poff[v] + lane; e < poff[v + 1]; e += 32) {
        u32 p = padj[e];
        offer(T, p, load_prefix(P, p), best, bp, kv);
    }
    best = warp_best(T, P, best, kv);
    if (lane == 0) attach(T, P, v, best);
}

// A block per vertex; blockDim.x is a multiple of 32, at most 1024.
extern "C" __global__ void select_block(const u32* queue, u32 count, const u64* poff, const u32* padj, Node* T,
                                        u32* P, u32 rho) {
    __shared__ u32 warp_bests[32];
    u32 v = queue[blockIdx.x];
    u32 kv = T[v].key;
    u32 best = NONE;
    Prefix bp;
    for (u64 e = poff[v] + threadIdx.x; e < poff[v + 1]; e += blockDim.x) {
        u32 p = padj[e];
        offer(T, p, load_prefix(P, p), best, bp, kv);
    }
    best = warp_best(T, P, best, kv);
    if (threadIdx.x % 32 == 0) warp_bests[threadIdx.x / 32] = best;
    __syncthreads();
    if (threadIdx.x < 32) {
        best = threadIdx.x < blockDim.x / 32 ? warp_bests[threadIdx.x] : NONE;
        best = warp_best(T, P, best, kv);
        if (threadIdx.x == 0) attach(T, P, v, best);
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
// it adds it to its T-parent's. Phases 2 and 3 do the same work for every vertex whatever its
// degree, so one launch covers a level's three queues: thread i takes the i-th vertex of
// small ++ medium ++ large, which sit at bins[c * n + base_c] for count_c vertices.

__device__ __forceinline__ bool level_vertex(const u32* bins, u32 n, u32 base0, u32 count0, u32 base1, u32 count1,
                                             u32 base2, u32 count2, u32& v) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count0) {
        v = bins[base0 + i];
    } else if (i < count0 + count1) {
        v = bins[n + base1 + (i - count0)];
    } else if (i < count0 + count1 + count2) {
        v = bins[2 * (u64)n + base2 + (i - count0 - count1)];
    } else {
        return false;
    }
    return true;
}

extern "C" __global__ void push_sizes(const u32* bins, u32 n, u32 base0, u32 count0, u32 base1, u32 count1,
                                      u32 base2, u32 count2, const Node* T, u32* size) {
    u32 v;
    if (!level_vertex(bins, n, base0, count0, base1, count1, base2, count2, v)) return;
    u32 p = T[v].parent;
    if (p != n) atomicAdd(&size[p], size[v]);  // n is rho
}

// Exclusive prefix sums of size[] over the vertices vertex_at(0), ..., vertex_at(count - 1), in that
// order, written to offset[]. Called by every thread of one block (blockDim.x a multiple of 32).
template <typename At>
__device__ void block_offsets(u32 count, At vertex_at, const u32* size, u32* offset) {
    __shared__ u32 warp_sums[32];
    __shared__ u32 carry;
    u32 lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (u32 chunk = 0; chunk < count; chunk += blockDim.x) {
        u32 i = chunk + threadIdx.x;
        u32 v = i < count ? vertex_at(i) : 0;
        u32 s = i < count ? size[v] : 0;
        u32 x = s;  // inclusive scan within the warp
        for (u32 d = 1; d < 32; d <<= 1) {
            u32 y = __shfl_up_sync(0xffffffffu, x, d);
            if (lane >= d) x += y;
        }
        if (lane == 31) warp_sums[warp] = x;
        __syncthreads();
        if (warp == 0) {
            u32 w = lane < warps ? warp_sums[lane] : 0;
            for (u32 d = 1; d < 32; d <<= 1) {
                u32 y = __shfl_up_sync(0xffffffffu, w, d);
                if (lane >= d) w += y;
            }
            warp_sums[lane] = w;
        }
        __syncthreads();
        u32 inclusive = carry + (warp > 0 ? warp_sums[warp - 1] : 0) + x;
        if (i < count) offset[v] = inclusive - s;
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1) carry = inclusive;
        __syncthreads();
    }
}

// The scratch a hub of `count` T-children sorts in: the next power of two (bitonic sort).
__device__ __forceinline__ u64 sort_span(u32 count) {
    u64 span = 1;
    while (span < count) span <<= 1;
    return span;
}

// After the last level, before(c) for every vertex c: the sizes of c's T-siblings that precede it
// (smaller key), summed. It goes in offset[c], which phase 3 completes top-down. A warp per T-parent
// p counts p's T-children among its DAG children and gathers the first 32, one per lane; with at
// most 32 (nearly always), each lane sums the sizes of the others with smaller keys. A parent with
// more is a hub: it is listed for `hub_sibling_sums` with a scratch span of the next power of two.
// hub_state: [0] hubs listed, [1] scratch entries taken (both zeroed before the launch).
extern "C" __global__ void sibling_sums(const u64* coff, const u32* cadj, const Node* T, const u32* size,
                                        u32* offset, u64* hub_state, u64* hubs, u32 n) {
    __shared__ u32 gathered[256 / 32][32];  // blockDim.x is 256
    u32 p = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    u32 lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (p >= n) return;  // whole warps leave together
    u32 count = 0;
    for (u64 e0 = coff[p]; e0 < coff[p + 1]; e0 += 32) {
        u64 e = e0 + lane;
        u32 c = e < coff[p + 1] ? cadj[e] : NONE;
        bool tree_child = c != NONE && T[c].parent == p;
        u32 ballot = __ballot_sync(0xffffffffu, tree_child);
        u32 slot = count + __popc(ballot & ((1u << lane) - 1u));
        if (tree_child && slot < 32) gathered[warp][slot] = c;
        count += __popc(ballot);
    }
    __syncwarp();
    if (count > 32) {
        if (lane == 0) {
            u64 h = atomicAdd(&hub_state[0], 1ull);
            hubs[2 * h] = ((u64)count << 32) | p;
            hubs[2 * h + 1] = atomicAdd(&hub_state[1], sort_span(count));
        }
        return;
    }
    u32 c = lane < count ? gathered[warp][lane] : NONE;
    u32 key = c != NONE ? T[c].key : NONE;
    u32 sz = c != NONE ? size[c] : 0;
    u32 sum = 0;
    for (u32 j = 0; j < count; j++) {
        u32 kj = __shfl_sync(0xffffffffu, key, j);
        u32 sj = __shfl_sync(0xffffffffu, sz, j);
        if (kj < key) sum += sj;
    }
    if (c != NONE) offset[c] = sum;
}

// The hubs' before(c): a block per hub gathers its T-children as (key, vertex) into its scratch span,
// pads it with the largest value, sorts it (bitonic, in place) and writes the prefix sums of the
// sizes in key order. O(k log^2 k) for k T-children, where comparing every pair would be O(k^2).
extern "C" __global__ void hub_sibling_sums(const u64* hub_state, const u64* hubs, const u64* coff, const u32* cadj,
                                            const Node* T, const u32* size, u64* scratch, u32* offset) {
    __shared__ u32 filled;
    for (u64 h = blockIdx.x; h < hub_state[0]; h += gridDim.x) {
        u32 p = (u32)hubs[2 * h], count = (u32)(hubs[2 * h] >> 32);
        u64* a = scratch + hubs[2 * h + 1];
        u64 span = sort_span(count);
        if (threadIdx.x == 0) filled = 0;
        __syncthreads();
        for (u64 e = coff[p] + threadIdx.x; e < coff[p + 1]; e += blockDim.x) {
            u32 c = cadj[e];
            if (T[c].parent == p) a[atomicAdd(&filled, 1u)] = ((u64)T[c].key << 32) | c;
        }
        for (u64 i = count + threadIdx.x; i < span; i += blockDim.x) a[i] = ~0ull;
        __syncthreads();
        for (u64 run = 2; run <= span; run <<= 1) {
            for (u64 stride = run / 2; stride > 0; stride >>= 1) {
                for (u64 i = threadIdx.x; i < span / 2; i += blockDim.x) {
                    u64 lo = 2 * stride * (i / stride) + i % stride, hi = lo + stride;
                    bool ascending = (lo & run) == 0;
                    u64 x = a[lo], y = a[hi];
                    if ((x > y) == ascending) {
                        a[lo] = y;
                        a[hi] = x;
                    }
                }
                __syncthreads();
            }
        }
        block_offsets(count, [&](u32 i) { return (u32)a[i]; }, size, offset);
        __syncthreads();
    }
}

// The roots are rho's T-children, in root order: their offsets are the exclusive prefix sums of
// their sizes in that order. One block.
extern "C" __global__ void root_offsets(const u32* roots, u32 count, const u32* size, u32* offset) {
    block_offsets(count, [&](u32 i) { return roots[i]; }, size, offset);
}

// ---------------------------------------------------------------------------------------------
// Phase 3: post-order (top-down over Kahn levels): offset(c) = offset(T-parent) + before(c), with
// before(c) already in offset[c] (roots: their final offsets), and post = offset + size.

extern "C" __global__ void post_order(const u32* bins, u32 n, u32 base0, u32 count0, u32 base1, u32 count1,
                                      u32 base2, u32 count2, const Node* T, const u32* size, u32* offset, u32* post) {
    u32 v;
    if (!level_vertex(bins, n, base0, count0, base1, count1, base2, count2, v)) return;
    u32 p = T[v].parent;
    u32 o = offset[v];
    if (p != n) o += offset[p];  // n is rho
    offset[v] = o;
    post[v] = o + size[v];
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
