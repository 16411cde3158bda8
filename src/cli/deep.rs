//! `grail info --deep`: what dominates a graph (hubs, widest levels, who reaches the most) and where
//! GRAIL's false positives concentrate, as JSON fields and as human lines.

use crate::exceptions::SAMPLES;
use crate::exceptions::concentration::{self, Concentration, Share};
use crate::format::{plural, thousands};
use crate::graph::dominance::{self, Dominance, ReachEntry, ReachMethod};
use crate::index::{Order, dfs};
use crate::workspace::Workspace;
use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::Value;

/// Seed of the labels' random order and of the sampled pairs: the Graph tab's.
const SEED: u64 = crate::exceptions::SAMPLE_SEED;

/// The `deep` object of `grail info --json`. Vertices are the file's ids (or names).
#[derive(Serialize)]
pub struct DeepReport {
    /// The largest out-degrees of the graph as loaded: `{vertex, degree}`, largest first.
    hubs_out: Vec<Value>,
    /// The largest in-degrees of the graph as loaded.
    hubs_in: Vec<Value>,
    /// The Kahn levels of the condensation holding the most components: `{level, components}`.
    widest_levels: Vec<Value>,
    /// Who reaches, and who is reached by, the most.
    reach: ReachReport,
    /// Where the labels' false positives lie.
    false_positives: FalsePositives,
    /// The same, as lines for people.
    #[serde(skip)]
    pub lines: Vec<String>,
}

#[derive(Serialize)]
struct ReachReport {
    /// `exact` or `estimate`.
    method: &'static str,
    /// Hashes per bottom-k sketch (null when exact).
    sketch_k: Option<usize>,
    /// How the counts were made, in words.
    description: String,
    /// `{vertex, component_size, vertices}`: the vertices each reaches besides itself (every member
    /// of a component reaches the same; `vertex` is its smallest).
    reaching: Vec<Value>,
    /// `{vertex, component_size, vertices}`: the vertices that reach each.
    reached_by: Vec<Value>,
}

#[derive(Serialize)]
struct FalsePositives {
    /// The labels: classic DFS, `dims` dimensions, random order with `seed`.
    dims: usize,
    seed: u64,
    /// Every ordered pair of components looked at (else `pairs` uniform samples drawn with `seed`).
    exact: bool,
    pairs: u64,
    false_positives: u64,
    /// `{level, false_positives}`: the source's Kahn level, most first.
    by_level: Vec<Value>,
    /// `{vertex, false_positives}`: pairs with this source (its component's smallest vertex).
    by_source: Vec<Value>,
    /// `{vertex, false_positives}`: pairs with this target.
    by_target: Vec<Value>,
}

/// Computes the deep report of `ws`: its dominance, and the false positives of GRAIL labels (the
/// default dimensions, random order, seed 1).
pub fn compute(ws: &Workspace) -> Result<DeepReport> {
    let dominance = dominance::compute(&ws.loaded.graph, &ws.condensation, false);
    let dims = crate::backend::DEFAULT_DIMS;
    let labels = dfs::label(ws.dag(), dims, Order::Random { seed: SEED }).context("cannot label the graph")?;
    let never = std::sync::atomic::AtomicBool::new(false);
    let fp = concentration::concentration(ws.dag(), &labels, SAMPLES, SEED, &never)?;
    Ok(report(ws, &dominance, &fp))
}

fn report(ws: &Workspace, d: &Dominance, fp: &Concentration) -> DeepReport {
    let counted = d.reach.as_ref().expect("the deep report always counts the reach");
    let names = &ws.loaded.names;
    let representatives = ws.condensation.representatives();
    let ranked = |list: &[dominance::Ranked]| {
        list.iter().map(|r| serde_json::json!({"vertex": names.json_id(r.vertex), "degree": r.count})).collect()
    };
    let reach = |list: &[ReachEntry]| {
        list.iter()
            .map(|e| {
                serde_json::json!({"vertex": names.json_id(e.vertex), "component_size": e.component_size, "vertices": e.count})
            })
            .collect()
    };
    let shares = |list: &[Share]| {
        list.iter()
            .map(|s| {
                serde_json::json!({"vertex": names.json_id(representatives[s.key as usize]), "false_positives": s.false_positives})
            })
            .collect()
    };
    DeepReport {
        hubs_out: ranked(&d.top_out_degree),
        hubs_in: ranked(&d.top_in_degree),
        widest_levels: d
            .widest_levels
            .iter()
            .map(|l| serde_json::json!({"level": l.level, "components": l.components}))
            .collect(),
        reach: ReachReport {
            method: if counted.method == ReachMethod::Exact { "exact" } else { "estimate" },
            sketch_k: match counted.method {
                ReachMethod::Exact => None,
                ReachMethod::BottomK { k } => Some(k),
            },
            description: counted.method.describe(),
            reaching: reach(&counted.reaching),
            reached_by: reach(&counted.reached),
        },
        false_positives: FalsePositives {
            dims: fp.dims,
            seed: SEED,
            exact: fp.exact,
            pairs: fp.pairs,
            false_positives: fp.false_positives,
            by_level: fp
                .by_level
                .iter()
                .map(|s| serde_json::json!({"level": s.key, "false_positives": s.false_positives}))
                .collect(),
            by_source: shares(&fp.by_source),
            by_target: shares(&fp.by_target),
        },
        lines: human_lines(ws, d, fp),
    }
}

/// The human lines of the deep report: hubs, widest levels, reach, false positives.
fn human_lines(ws: &Workspace, d: &Dominance, fp: &Concentration) -> Vec<String> {
    let counted = d.reach.as_ref().expect("the deep report always counts the reach");
    let names = &ws.loaded.names;
    let reps = ws.condensation.representatives();
    let mut lines = Vec::new();
    let list = |items: Vec<String>| if items.is_empty() { "none".to_string() } else { items.join(", ") };
    lines.push(format!(
        "hubs out   {}",
        list(d.top_out_degree.iter().map(|r| format!("{} ({})", names.label(r.vertex), thousands(r.count))).collect())
    ));
    lines.push(format!(
        "hubs in    {}",
        list(d.top_in_degree.iter().map(|r| format!("{} ({})", names.label(r.vertex), thousands(r.count))).collect())
    ));
    lines.push(format!(
        "widest     {}",
        list(
            d.widest_levels
                .iter()
                .map(|l| format!("level {} ({})", l.level, plural(l.components, "component", "components")))
                .collect()
        )
    ));
    // Counts exclude the vertex itself; an estimate's count is marked `~` so that no single
    // number reads as exact.
    let approx = if counted.method == ReachMethod::Exact { "" } else { "~" };
    let entry = |e: &ReachEntry, verb: &str| e.sentence(&names.label(e.vertex), verb, approx);
    lines.push(format!("reach      {}", counted.method.describe()));
    lines.push(format!("  reaching {}", list(counted.reaching.iter().map(|e| entry(e, "reaches")).collect())));
    lines.push(format!("  reached  {}", list(counted.reached.iter().map(|e| entry(e, "is reached by")).collect())));
    lines.push(format!(
        "false pos. {} with labels of {} dimensions (classic DFS, random order, seed {SEED}) over {}",
        thousands(fp.false_positives),
        fp.dims,
        fp.over()
    ));
    if fp.false_positives > 0 {
        let vertex = |key: u32| names.label(reps[key as usize]);
        lines.push(format!("  share by source level  {}", list(fp.entries(&fp.by_level, |level| level.to_string()))));
        lines.push(format!("  share by source        {}", list(fp.entries(&fp.by_source, vertex))));
        lines.push(format!("  share by target        {}", list(fp.entries(&fp.by_target, vertex))));
    }
    lines
}
