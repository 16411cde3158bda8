//! Plain sentences for the query index's rules: what each one saw and why that settles the query.
//! Shared by `grail query`, the explorer's Query tab and the picture's caption. (GRAIL's own rules
//! are explained by each view next to the intervals it draws.)

use super::answer::Rule;
use super::bloom::BLOOM_WORDS;
use super::query_index::QueryIndex;
use super::supportive::has_bit;
use crate::format::thousands;
use crate::graph::Graph;

/// Why `rule` decided `u ⇝ v` on DAG vertices `cu`, `cv` of `dag` (`detail`: the answer's
/// `cut_dimension`), naming the query's ends `u` and `v` and a supportive vertex by `name`. `None`
/// for GRAIL's rules, whose explanations need the labels.
pub fn explain_index_rule(
    dag: &Graph,
    index: &QueryIndex,
    rule: Rule,
    detail: Option<usize>,
    (cu, cv): (u32, u32),
    (u, v): (&str, &str),
    name: &dyn Fn(u32) -> String,
) -> Option<String> {
    let (a, b) = (index.of(cu), index.of(cv));
    let chosen = || QueryIndex::supportive(dag);
    let supportive = |bit: usize| chosen().get(bit).map_or_else(|| format!("#{bit}"), |&s| name(s));
    Some(match rule {
        Rule::TopoCut => {
            let (pa, pb) = (index.topo(cu), index.topo(cv));
            let order = detail.unwrap_or(0).min(pa.len() - 1);
            let which = if order == 0 { "forward DFS" } else { "backward DFS" };
            format!(
                "Topological order {} ({which}): {u} is at {}, {v} at {}; {u} does not come before {v}, and every \
                 edge goes forward in a topological order, so {u} cannot reach {v}.",
                order + 1,
                thousands(u64::from(pa[order])),
                thousands(u64::from(pb[order]))
            )
        }
        Rule::SupportiveCut => {
            let bit = detail.unwrap_or(0);
            let s = supportive(bit);
            if has_bit(&a.from_support, bit) && !has_bit(&b.from_support, bit) {
                format!(
                    "Supportive vertex {s} reaches {u} but not {v}: if {u} reached {v}, {s} would reach {v} through \
                     {u}, so {u} cannot reach {v}."
                )
            } else {
                format!(
                    "{v} reaches supportive vertex {s} but {u} does not: if {u} reached {v}, it would reach {s} \
                     through {v}, so {u} cannot reach {v}."
                )
            }
        }
        Rule::SupportivePath => {
            let bit = detail.unwrap_or(0);
            let vertex = chosen().get(bit).copied();
            let s = supportive(bit);
            if vertex == Some(cu) {
                return Some(format!(
                    "{u} is a supportive vertex: everything it reaches is stored for every vertex, and {v} is among \
                     it, so {u} reaches {v}."
                ));
            }
            if vertex == Some(cv) {
                return Some(format!(
                    "{v} is a supportive vertex: everything that reaches it is stored for every vertex, and {u} is \
                     among it, so {u} reaches {v}."
                ));
            }
            format!(
                "{u} reaches supportive vertex {s} and {s} reaches {v} (both stored for every vertex), so {u} reaches \
                 {v} through {s}."
            )
        }
        Rule::BloomCut => {
            let bit = detail.unwrap_or(0);
            if bit < 64 * BLOOM_WORDS {
                format!(
                    "Bloom filter of descendants, bit {bit}: some vertex below {v} sets it, but no vertex below {u} \
                     does; everything below {v} would be below {u} if {u} reached {v}, so {u} cannot reach {v}."
                )
            } else {
                format!(
                    "Bloom filter of ancestors, bit {}: some vertex above {u} sets it, but no vertex above {v} does; \
                     everything above {u} would be above {v} if {u} reached {v}, so {u} cannot reach {v}.",
                    bit - 64 * BLOOM_WORDS
                )
            }
        }
        _ => return None,
    })
}

/// A short phrase for a child the search pruned or settled with `rule` (for search trees).
pub fn search_step_phrase(rule: Rule) -> &'static str {
    match rule {
        Rule::LevelCut => "pruned by level",
        Rule::TopoCut => "pruned by topological order",
        Rule::SupportiveCut => "pruned by a supportive vertex",
        Rule::BloomCut => "pruned by Bloom filter",
        Rule::LabelCut => "pruned by label",
        Rule::SupportivePath => "reaches v through a supportive vertex",
        Rule::TreeCut => "reaches v down a DFS tree",
        Rule::SameComponent | Rule::Search => "decided",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Order, dfs};

    #[test]
    fn sentences_name_the_numbers() {
        let g = Graph::from_edges(3, &[(0, 1), (1, 2)]).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        let index = QueryIndex::build(&g, &labels).unwrap();
        let name = |x: u32| format!("v{x}");
        let topo = explain_index_rule(&g, &index, Rule::TopoCut, Some(0), (2, 0), ("u", "v"), &name).unwrap();
        assert!(topo.contains("Topological order 1") && topo.contains("cannot reach"), "{topo}");
        let path = explain_index_rule(&g, &index, Rule::SupportivePath, Some(0), (0, 2), ("u", "v"), &name).unwrap();
        assert!(path.contains("supportive vertex v"), "{path}");
        assert!(explain_index_rule(&g, &index, Rule::LabelCut, Some(0), (0, 2), ("u", "v"), &name).is_none());
    }
}
