//! Layered (Sugiyama-style) layout of a small DAG: layers, crossing reduction, columns.
//!
//! Written here rather than taken from `rust-sugiyama` (0.4), which we weighed: it layers by network
//! simplex, while a GRAIL picture must layer by topological level (longest path from a root, the
//! `level` of the level-cut rule, so a class sees the rule in the picture); it returns float
//! coordinates per connected component without the dummy points that long edges need to be routed
//! between boxes in a character grid; and it brings `petgraph` and `log` for what is here about
//! two hundred lines.
//!
//! 1. Layer = longest path from a root. An edge spanning several layers gets one dummy point per
//!    layer it crosses, so every segment joins adjacent layers.
//! 2. Order within layers: depth-first discovery order, then barycenter sweeps (down with the
//!    layer above, up with the layer below), keeping the order with the fewest crossings.
//! 3. Columns: each layer's items pulled towards the mean column of their neighbours, with at least
//!    one column between items, by isotonic regression (pool adjacent violators), a few rounds.
//!
//! 4. Optionally a pair kept close (a query's u and v in a neighbourhood): the second is moved
//!    within its layer to where the first's column is, and pulled to that column, so that a
//!    screen showing one shows the other, at the price of a few more crossings.
//!
//! Work is `O(sweeps · segments · log width)`: meant for at most a few hundred vertices.

/// Barycenter sweeps (down + up counts as two); the best order seen is kept.
const SWEEPS: usize = 24;
/// Rounds of pulling columns towards neighbours.
const COLUMN_ROUNDS: usize = 6;
/// How much a dummy point pulls a node's column, against 1 for a node: a vertex sits under its
/// drawn parents and above its children, rather than dragged aside by the long edges that end at
/// it (a neighbourhood of a hub has many of them).
const DUMMY_PULL: f64 = 0.05;

/// Where everything goes, in abstract units: layer 0 at the top, one column per item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Per node.
    pub layer: Vec<u32>,
    /// Per node.
    pub column: Vec<u32>,
    /// Per edge, the dummy points `(layer, column)` it passes through, top to bottom.
    pub routes: Vec<Vec<(u32, u32)>>,
    /// Rows of the grid (the largest layer plus one; 0 without nodes).
    pub layers: u32,
    /// Columns of the grid, dummy points included.
    pub columns: u32,
    /// Segment crossings in the first order, before crossing reduction.
    pub crossings_before: u64,
    /// Segment crossings in the order kept.
    pub crossings: u64,
}

/// Lays out `n` nodes joined by `edges` (`from -> to`, node indices; must be acyclic: nodes on a
/// cycle are put below everything else and their edges drawn without routes, never a panic).
pub fn layout(n: usize, edges: &[(usize, usize)]) -> Layout {
    layout_near(n, edges, None, false)
}

/// [`layout`], with node `pair.1` placed as close to the column of node `pair.0` as its layer
/// allows (see the module's step 4). `crossings` counts the crossings of the layout returned. A
/// `neighbourhood` (part of a larger graph, whose long edges mostly fan into a few hubs) places each
/// node by its drawn neighbours, barely by the long edges passing through (see `DUMMY_PULL`).
pub fn layout_near(n: usize, edges: &[(usize, usize)], pair: Option<(usize, usize)>, neighbourhood: bool) -> Layout {
    let edges: Vec<(usize, usize)> = edges.iter().copied().filter(|&(a, b)| a < n && b < n && a != b).collect();
    let layer = longest_path_layers(n, &edges);
    let layers = layer.iter().max().map_or(0, |&l| l + 1);
    // Items: the nodes, then the dummy points; segments join items of adjacent layers.
    let mut item_layer: Vec<u32> = layer.clone();
    let mut segments: Vec<(usize, usize)> = Vec::new();
    let mut dummies_of_edge: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
    for &(a, b) in &edges {
        let mut chain = Vec::new();
        if layer[b] > layer[a] {
            let mut previous = a;
            for l in layer[a] + 1..layer[b] {
                let dummy = item_layer.len();
                item_layer.push(l);
                segments.push((previous, dummy));
                chain.push(dummy);
                previous = dummy;
            }
            segments.push((previous, b));
        }
        dummies_of_edge.push(chain);
    }
    let items = item_layer.len();
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); items];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); items];
    for &(a, b) in &segments {
        down[a].push(b);
        up[b].push(a);
    }
    let mut rows = first_order(&item_layer, layers as usize, &down);
    let crossings_before = total_crossings(&rows, &down, items);
    let (mut rows, mut crossings) = reduce_crossings(&mut rows, &up, &down, items, crossings_before);
    let mut column = columns(&rows, &up, &down, n, None, neighbourhood);
    if let Some((a, b)) = pair.filter(|&(a, b)| a < n && b < n && a != b) {
        let row = &mut rows[layer[b] as usize];
        row.retain(|&x| x != b);
        let at = row.iter().position(|&x| column[x] > column[a]).unwrap_or(row.len());
        row.insert(at, b);
        column = columns(&rows, &up, &down, n, Some((a, b)), neighbourhood);
        crossings = total_crossings(&rows, &down, items);
    }
    let columns = column.iter().max().map_or(0, |&c| c + 1);
    let routes =
        dummies_of_edge.iter().map(|chain| chain.iter().map(|&d| (item_layer[d], column[d])).collect()).collect();
    Layout { layer, column: column[..n].to_vec(), routes, layers, columns, crossings_before, crossings }
}

/// Longest path from a root (Kahn). Nodes left over by a cycle go below the rest.
fn longest_path_layers(n: usize, edges: &[(usize, usize)]) -> Vec<u32> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pending = vec![0usize; n];
    for &(a, b) in edges {
        children[a].push(b);
        pending[b] += 1;
    }
    let mut layer = vec![0u32; n];
    let mut done = vec![false; n];
    let mut queue: Vec<usize> = (0..n).filter(|&v| pending[v] == 0).collect();
    while let Some(v) = queue.pop() {
        done[v] = true;
        for &c in &children[v] {
            layer[c] = layer[c].max(layer[v] + 1);
            pending[c] -= 1;
            if pending[c] == 0 {
                queue.push(c);
            }
        }
    }
    let bottom = layer.iter().zip(&done).filter(|(_, d)| **d).map(|(l, _)| l + 1).max().unwrap_or(0);
    for v in (0..n).filter(|&v| !done[v]) {
        layer[v] = bottom;
    }
    layer
}

/// Each layer's items in depth-first discovery order from the top layer (keeps subtrees together).
fn first_order(item_layer: &[u32], layers: usize, down: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let items = item_layer.len();
    let mut seen = vec![false; items];
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers];
    let mut starts: Vec<usize> = (0..items).collect();
    starts.sort_by_key(|&i| item_layer[i]);
    for start in starts {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        while let Some(x) = stack.pop() {
            rows[item_layer[x] as usize].push(x);
            for &c in down[x].iter().rev() {
                if !seen[c] {
                    seen[c] = true;
                    stack.push(c);
                }
            }
        }
    }
    rows
}

/// Barycenter sweeps; returns the best rows seen and their crossings.
fn reduce_crossings(
    rows: &mut [Vec<usize>],
    up: &[Vec<usize>],
    down: &[Vec<usize>],
    items: usize,
    crossings: u64,
) -> (Vec<Vec<usize>>, u64) {
    let mut best = (rows.to_vec(), crossings);
    let mut position = vec![0usize; items];
    for sweep in 0..SWEEPS {
        if best.1 == 0 {
            break;
        }
        let downward = sweep % 2 == 0;
        let order: Vec<usize> =
            if downward { (1..rows.len()).collect() } else { (0..rows.len().saturating_sub(1)).rev().collect() };
        for l in order {
            let neighbour = if downward { l - 1 } else { l + 1 };
            for (i, &x) in rows[neighbour].iter().enumerate() {
                position[x] = i;
            }
            let links = if downward { up } else { down };
            // Key: mean position of the neighbours; an item without any keeps its own place.
            let mut keyed: Vec<(f64, usize, usize)> = rows[l]
                .iter()
                .enumerate()
                .map(|(i, &x)| {
                    let near = &links[x];
                    let key = if near.is_empty() {
                        i as f64
                    } else {
                        near.iter().map(|&y| position[y] as f64).sum::<f64>() / near.len() as f64
                    };
                    (key, i, x)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            rows[l] = keyed.into_iter().map(|(_, _, x)| x).collect();
        }
        let crossings = total_crossings(rows, down, items);
        if crossings < best.1 {
            best = (rows.to_vec(), crossings);
        }
    }
    best
}

/// Crossings between every pair of adjacent layers.
fn total_crossings(rows: &[Vec<usize>], down: &[Vec<usize>], items: usize) -> u64 {
    let mut position = vec![0usize; items];
    for row in rows {
        for (i, &x) in row.iter().enumerate() {
            position[x] = i;
        }
    }
    rows.windows(2).map(|pair| layer_crossings(&pair[0], pair[1].len(), down, &position)).sum()
}

/// Crossings of the segments from `upper` to a layer of `lower_len` items: the inversions of the
/// lower ends once segments are sorted by upper end (Fenwick tree, `O(s log w)`).
fn layer_crossings(upper: &[usize], lower_len: usize, down: &[Vec<usize>], position: &[usize]) -> u64 {
    let mut ends: Vec<(usize, usize)> =
        upper.iter().flat_map(|&a| down[a].iter().map(move |&b| (position[a], position[b]))).collect();
    ends.sort_unstable();
    let mut tree = vec![0u64; lower_len + 1];
    let mut crossings = 0u64;
    for (inserted, &(_, b)) in ends.iter().enumerate() {
        // Segments seen so far ending strictly right of `b` cross this one.
        let mut i = b + 1;
        let mut at_most_b = 0;
        while i > 0 {
            at_most_b += tree[i];
            i &= i - 1;
        }
        crossings += inserted as u64 - at_most_b;
        let mut i = b + 1;
        while i <= lower_len {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    crossings
}

/// Columns: every item pulled towards the mean column of its neighbours (item `pin.1` towards item
/// `pin.0` instead), keeping each layer's order and at least one column between neighbours; shifted
/// so the leftmost column is 0.
fn columns(
    rows: &[Vec<usize>],
    up: &[Vec<usize>],
    down: &[Vec<usize>],
    nodes: usize,
    pin: Option<(usize, usize)>,
    neighbourhood: bool,
) -> Vec<u32> {
    let items = up.len();
    // In a neighbourhood a node is pulled hard by nodes and softly by dummy points; a dummy point
    // equally by both neighbours, so a long edge stays straight. A whole graph keeps every pull
    // equal, which keeps it more compact.
    let soft = if neighbourhood { DUMMY_PULL } else { 1.0 };
    let pull = |item: usize, by: usize| if item >= nodes || by < nodes { 1.0 } else { soft };
    let mut x = vec![0f64; items];
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
    for row in rows {
        // Centre each layer under the widest one to start with.
        let offset = (widest - row.len()) as f64 / 2.0;
        for (i, &item) in row.iter().enumerate() {
            x[item] = offset + i as f64;
        }
    }
    for round in 0..COLUMN_ROUNDS {
        let order: Vec<usize> =
            if round % 2 == 0 { (0..rows.len()).collect() } else { (0..rows.len()).rev().collect() };
        for l in order {
            let wanted: Vec<f64> = rows[l]
                .iter()
                .map(|&item| {
                    if let Some((to, pinned)) = pin
                        && item == pinned
                    {
                        return x[to];
                    }
                    let near = up[item].iter().chain(&down[item]);
                    let weight: f64 = near.clone().map(|&y| pull(item, y)).sum();
                    if weight == 0.0 { x[item] } else { near.map(|&y| pull(item, y) * x[y]).sum::<f64>() / weight }
                })
                .collect();
            for (&item, placed) in rows[l].iter().zip(spaced_fit(&wanted)) {
                x[item] = placed;
            }
        }
    }
    // Integer columns: rounding `x_i - i` keeps it non-decreasing, so neighbours stay a column apart;
    // floating-point rounding can still tie two neighbours (x = 2.4999... then 2.5000...), so each
    // item is also kept right of the one before it.
    let mut column = vec![0i64; items];
    for row in rows {
        let mut previous: Option<i64> = None;
        for (i, &item) in row.iter().enumerate() {
            let c = (x[item] - i as f64).round() as i64 + i as i64;
            let c = previous.map_or(c, |p| c.max(p + 1));
            column[item] = c;
            previous = Some(c);
        }
    }
    let left = column.iter().copied().min().unwrap_or(0);
    column.iter().map(|&c| (c - left) as u32).collect()
}

/// The positions closest (least squares) to `wanted`, in the same order, at least 1 apart:
/// with `y_i = x_i - i` this is isotonic regression of `wanted_i - i`, solved by pooling adjacent
/// violators.
fn spaced_fit(wanted: &[f64]) -> Vec<f64> {
    // Blocks of (sum, count), each block's mean at least the previous block's.
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for (i, &w) in wanted.iter().enumerate() {
        blocks.push((w - i as f64, 1));
        while blocks.len() >= 2 {
            let (s2, c2) = blocks[blocks.len() - 1];
            let (s1, c1) = blocks[blocks.len() - 2];
            if s1 / c1 as f64 <= s2 / c2 as f64 {
                break;
            }
            blocks.pop();
            *blocks.last_mut().expect("two blocks") = (s1 + s2, c1 + c2);
        }
    }
    let mut out = Vec::with_capacity(wanted.len());
    for (sum, count) in blocks {
        let mean = sum / count as f64;
        for _ in 0..count {
            out.push(mean + out.len() as f64);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    #[test]
    fn diamond_has_three_layers_and_no_crossing() {
        let l = layout(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        assert_eq!(l.layer, vec![0, 1, 1, 2]);
        assert_eq!(l.crossings, 0);
        assert_ne!(l.column[1], l.column[2]);
        assert!(l.routes.iter().all(Vec::is_empty));
    }

    #[test]
    fn long_edges_route_through_dummy_points() {
        let l = layout(4, &[(0, 1), (1, 2), (2, 3), (0, 3)]);
        assert_eq!(l.layer, vec![0, 1, 2, 3]);
        assert_eq!(l.routes[3].iter().map(|p| p.0).collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    fn crossings_are_reduced() {
        // Two parents with their children listed crosswise: 0 -> 3, 1 -> 2 laid out in id order
        // would cross; the sweeps untangle them.
        let l = layout(6, &[(0, 3), (0, 4), (1, 2), (1, 5), (4, 5)]);
        assert_eq!(l.crossings, 0);
    }

    #[test]
    fn spaced_fit_keeps_order_and_gaps() {
        assert_eq!(spaced_fit(&[2.0, 2.0]), vec![1.5, 2.5]);
        assert_eq!(spaced_fit(&[0.0, 5.0]), vec![0.0, 5.0]);
        assert_eq!(spaced_fit(&[]), Vec::<f64>::new());
    }

    #[test]
    fn neighbours_never_share_a_column() {
        // Found by the property test below: two vertices once rounded to one column.
        let l = layout(5, &[(0, 2), (1, 2), (1, 3), (1, 4)]);
        let mut bottom: Vec<u32> = [2, 3, 4].iter().map(|&v| l.column[v]).collect();
        bottom.sort_unstable();
        bottom.dedup();
        assert_eq!(bottom.len(), 3, "{l:?}");
        assert_ne!(l.column[0], l.column[1]);
    }

    #[test]
    fn a_pair_is_kept_close() {
        // Two fans side by side: 0 above 2..=11, 1 above 12..=21; 2 and 21 end up at opposite ends.
        let mut edges: Vec<(usize, usize)> = (2..12).map(|c| (0, c)).collect();
        edges.extend((12..22).map(|c| (1, c)));
        let far = layout(22, &edges);
        assert!(far.column[21].abs_diff(far.column[2]) >= 10, "{far:?}");
        let near = layout_near(22, &edges, Some((2, 21)), false);
        assert!(near.column[21].abs_diff(near.column[2]) <= 1, "{near:?}");
        let mut bottom: Vec<u32> = (2..22).map(|v| near.column[v]).collect();
        bottom.sort_unstable();
        bottom.dedup();
        assert_eq!(bottom.len(), 20, "still one column each");
    }

    #[test]
    fn in_a_neighbourhood_a_vertex_sits_under_its_parent() {
        // A hub 1 with parents 2..=21, its child 0 (with a child 23), and a root 22 whose long edge
        // to 0 passes the hub's layer: 22 is laid out at one end of the top layer.
        let mut edges: Vec<(usize, usize)> = (2..22).map(|p| (p, 1)).collect();
        edges.extend([(1, 0), (0, 23), (22, 0), (22, 1)]);
        let around = layout_near(24, &edges, None, true);
        assert!(around.column[0].abs_diff(around.column[1]) <= 1, "{around:?}");
        let whole = layout(24, &edges);
        assert!(whole.column[0].abs_diff(whole.column[1]) > 1, "the long edge pulls 0 aside: {whole:?}");
    }

    #[test]
    fn cycles_do_not_panic() {
        let l = layout(3, &[(0, 1), (1, 2), (2, 1), (5, 0)]);
        assert_eq!(l.layer.len(), 3);
    }

    /// Small random DAGs: edges `i -> j` with `i < j`.
    fn dags() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
        (0usize..28).prop_flat_map(|n| {
            let pairs = if n < 2 { 0 } else { n * 3 };
            (Just(n), proptest::collection::vec((0..n.max(1), 0..n.max(1)), 0..=pairs)).prop_map(|(n, raw)| {
                let mut edges: Vec<(usize, usize)> =
                    raw.into_iter().filter(|(a, b)| a != b).map(|(a, b)| (a.min(b), a.max(b))).collect();
                edges.sort_unstable();
                edges.dedup();
                (n, edges)
            })
        })
    }

    proptest! {
        #[test]
        fn every_edge_goes_down_and_nothing_overlaps((n, edges) in dags()) {
            let l = layout(n, &edges);
            prop_assert_eq!(l.layer.len(), n);
            prop_assert_eq!(l.column.len(), n);
            prop_assert_eq!(l.routes.len(), edges.len());
            // Every vertex placed once, no two items (vertices or dummy points) in one place.
            let mut taken = HashSet::new();
            for v in 0..n {
                prop_assert!(l.layer[v] < l.layers && l.column[v] < l.columns);
                prop_assert!(taken.insert((l.layer[v], l.column[v])), "two vertices at one place");
            }
            for ((a, b), route) in edges.iter().zip(&l.routes) {
                prop_assert!(l.layer[*b] > l.layer[*a], "edge {}->{} does not go down", a, b);
                // One dummy point on each layer strictly between the ends, top to bottom.
                let layers: Vec<u32> = route.iter().map(|p| p.0).collect();
                prop_assert_eq!(layers, (l.layer[*a] + 1..l.layer[*b]).collect::<Vec<u32>>());
                for point in route {
                    prop_assert!(point.1 < l.columns);
                    prop_assert!(taken.insert(*point), "a dummy point overlaps");
                }
            }
            prop_assert!(l.crossings <= l.crossings_before);
        }
    }
}
