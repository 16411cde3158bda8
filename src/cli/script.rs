//! `grail query GRAPH --script FILE`: edits and questions run in order on one index, each edit's
//! update timed and described, expected answers checked, and a rebuild of the edited graph timed
//! beside the updates.

use super::common::LabelOptions;
use super::output::{Output, Report, vertex_text};
use crate::dynamic::script::{ScriptLine, Step, read_script};
use crate::dynamic::{DynamicIndex, EdgeOverlay, Edit, EditReport, Reply, Verdict};
use crate::format::{duration, plural, thousands};
use crate::graph::{Graph, LoadedGraph, VertexNames};
use crate::query::{Rule, RuleSet};
use crate::reachability::Index;
use crate::telemetry::NullSink;
use crate::workspace::Workspace;
use anyhow::Result;
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// One line of the script and what it did.
#[derive(Serialize)]
#[serde(untagged)]
enum Done {
    Edit {
        line: u32,
        #[serde(skip)]
        shown: String,
        edit: &'static str,
        u: serde_json::Value,
        v: serde_json::Value,
        #[serde(flatten)]
        report: EditReport,
    },
    Ask {
        line: u32,
        #[serde(skip)]
        shown: String,
        ask: [serde_json::Value; 2],
        reachable: bool,
        decided_by: Verdict,
        /// The static engine's rule, while the graph is as loaded.
        #[serde(skip_serializing_if = "Option::is_none")]
        rule: Option<Rule>,
        visited: usize,
        seconds: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        expected: Option<bool>,
    },
}

/// The update times of the edits that changed the graph.
#[derive(Serialize)]
struct Updates {
    edits: usize,
    median_seconds: f64,
    p99_seconds: f64,
    max_seconds: f64,
    total_seconds: f64,
}

#[derive(Serialize)]
struct ScriptReport {
    script: String,
    steps: Vec<Done>,
    updates: Updates,
    /// Seconds to condense, label and index the edited graph from scratch, as the script's index
    /// was built: what the updates saved.
    rebuild_seconds: f64,
    vertices: usize,
    edges: usize,
    components: usize,
    /// Heap bytes of what the edits keep beside the static index (edges, components, intervals),
    /// and of the static index itself.
    edits_bytes: usize,
    static_index_bytes: usize,
    /// Lines whose answer is not the one the script expected.
    mismatches: Vec<u32>,
    #[serde(skip)]
    questions: usize,
    /// Seconds answering the questions took, all together.
    questions_seconds: f64,
}

/// Runs the script at `path` on `ws`, labelled as `options` say (`rules`: with the query index or
/// GRAIL's rules only, for the static answers before the first edit).
pub fn run(ws: Workspace, path: &Path, options: &LabelOptions, rules: RuleSet, output: Output) -> Result<()> {
    let n = ws.loaded.graph.num_vertices();
    let script = read_script(path, &ws.loaded.names, n)?;
    let names = ws.loaded.names.clone();
    let (ws, labels, query_index) = index_of(ws, options, rules)?.into_parts();
    let mut index = DynamicIndex::new(ws, labels, query_index);
    let steps: Vec<Done> = script.iter().map(|&line| step(&mut index, line, &names)).collect();

    let rebuild_start = Instant::now();
    let rebuilt = Workspace::of_graph(index.edited_graph(), "edited");
    // A rebuild builds: an `--index` file holds the labels of the graph as loaded, not edited.
    index_of(rebuilt, &LabelOptions { index: None, ..options.clone() }, rules)?;
    let rebuild_seconds = rebuild_start.elapsed().as_secs_f64();

    let mismatches = steps
        .iter()
        .filter_map(|done| match done {
            Done::Ask { line, reachable, expected: Some(expected), .. } if reachable != expected => Some(*line),
            _ => None,
        })
        .collect::<Vec<u32>>();
    let report = ScriptReport {
        script: path.display().to_string(),
        updates: updates(&steps),
        questions: steps.iter().filter(|done| matches!(done, Done::Ask { .. })).count(),
        questions_seconds: steps
            .iter()
            .map(|done| if let Done::Ask { seconds, .. } = done { *seconds } else { 0.0 })
            .fold(0.0, |total, seconds| total + seconds),
        steps,
        rebuild_seconds,
        vertices: n,
        edges: index.edges().num_edges(),
        components: index.components().count(),
        edits_bytes: index.heap_bytes(),
        static_index_bytes: index.static_heap_bytes(),
        mismatches,
    };
    output.show(&report)?;
    match report.mismatches.as_slice() {
        [] => Ok(()),
        lines => {
            let listed: Vec<String> = lines.iter().take(10).map(u32::to_string).collect();
            let more = if lines.len() > 10 { ", ..." } else { "" };
            Err(super::exit::Disagreement(format!(
                "{} from what the script expects (line {}{more})",
                plural(lines.len() as u64, "answer differs", "answers differ"),
                listed.join(", ")
            ))
            .into())
        }
    }
}

/// The graph `loaded` holds after the script at `path`'s edits (its questions are not asked), and
/// a sentence saying what was applied.
pub fn edited_graph(loaded: &LoadedGraph, path: &Path) -> Result<(Graph, String)> {
    let script = read_script(path, &loaded.names, loaded.graph.num_vertices())?;
    let mut edges = EdgeOverlay::new(Arc::clone(&loaded.graph));
    let (mut changed, mut unchanged, mut questions) = (0u64, 0u64, 0u64);
    for ScriptLine { step, .. } in script {
        let done = match step {
            Step::Edit(Edit::Insert { u, v }) => u != v && edges.insert(u, v),
            Step::Edit(Edit::Delete { u, v }) => edges.delete(u, v),
            Step::Ask { .. } => {
                questions += 1;
                continue;
            }
        };
        if done { changed += 1 } else { unchanged += 1 }
    }
    let mut said = format!("{} from {}", plural(changed, "edit", "edits"), path.display());
    if unchanged > 0 {
        said += &format!(" ({} more changed nothing)", thousands(unchanged));
    }
    if questions > 0 {
        said += &format!(" ({} not asked: convert only edits)", plural(questions, "question", "questions"));
    }
    Ok((edges.to_graph(), said))
}

/// The labels and, with every rule, the query index of `ws`'s DAG, as `grail query` builds them.
fn index_of(ws: Workspace, options: &LabelOptions, rules: RuleSet) -> Result<Index> {
    options.index(Arc::new(ws), rules, &mut NullSink)
}

fn step(index: &mut DynamicIndex, ScriptLine { line, step }: ScriptLine, names: &VertexNames) -> Done {
    let id = |v: u32| names.json_id(v);
    match step {
        Step::Edit(edit) => {
            let (u, v) = edit.edge();
            let (op, name) = if matches!(edit, Edit::Insert { .. }) { ('+', "insert") } else { ('-', "delete") };
            let shown = format!("{op} {} {}", vertex_text(&id(u)), vertex_text(&id(v)));
            Done::Edit { line, shown, edit: name, u: id(u), v: id(v), report: index.apply(edit) }
        }
        Step::Ask { u, v, expected } => {
            let start = Instant::now();
            let Reply { reachable, verdict, visited, rule } = index.reaches(u, v);
            let seconds = start.elapsed().as_secs_f64();
            let shown = format!("? {} {}", vertex_text(&id(u)), vertex_text(&id(v)));
            Done::Ask {
                line,
                shown,
                ask: [id(u), id(v)],
                reachable,
                decided_by: verdict,
                rule,
                visited,
                seconds,
                expected,
            }
        }
    }
}

fn updates(steps: &[Done]) -> Updates {
    let mut seconds: Vec<f64> = steps
        .iter()
        .filter_map(|done| match done {
            Done::Edit { report, .. } if report.unchanged.is_none() => Some(report.seconds),
            _ => None,
        })
        .collect();
    seconds.sort_by(f64::total_cmp);
    let at = |q: f64| seconds.get(((q * seconds.len() as f64).ceil() as usize).saturating_sub(1)).copied();
    Updates {
        edits: seconds.len(),
        median_seconds: at(0.5).unwrap_or(0.0),
        p99_seconds: at(0.99).unwrap_or(0.0),
        max_seconds: seconds.last().copied().unwrap_or(0.0),
        total_seconds: seconds.iter().fold(0.0, |total, s| total + s),
    }
}

/// What an edit did, in words.
fn effect(report: &EditReport) -> String {
    if let Some(why) = report.unchanged {
        return format!("unchanged: {why}");
    }
    let mut parts = vec![match report.edit {
        Edit::Insert { .. } => "inserted".to_string(),
        Edit::Delete { .. } => "deleted".to_string(),
    }];
    if report.merged > 0 {
        parts.push(format!(
            "closed a cycle: {} merged into one of {}",
            plural(report.merged as u64, "component", "components"),
            plural(report.merged_vertices as u64, "vertex", "vertices")
        ));
    }
    if report.split_into > 0 {
        parts.push(format!("its component split into {}", plural(report.split_into as u64, "piece", "pieces")));
    }
    if report.labels_grown > 0 {
        let grown = plural(report.labels_grown as u64, "component's intervals", "components' intervals");
        parts.push(format!("{grown} grew"));
    }
    format!("{} ({})", parts.join("; "), duration(report.seconds))
}

fn answer(reachable: bool) -> &'static str {
    if reachable { "yes" } else { "no" }
}

fn decided(verdict: Verdict, rule: Option<Rule>, visited: usize) -> String {
    match verdict {
        Verdict::Static => match rule {
            Some(rule) => format!("the graph as loaded: {}", rule.name()),
            None => "the graph as loaded".to_string(),
        },
        Verdict::SameComponent => "one component".to_string(),
        Verdict::Intervals => "intervals".to_string(),
        Verdict::Search => format!("search, {} visited", plural(visited as u64, "vertex", "vertices")),
    }
}

impl Report for ScriptReport {
    fn print(&self) {
        for done in &self.steps {
            match done {
                Done::Edit { line, shown, report, .. } => println!("{line:>5}  {shown}  {}", effect(report)),
                Done::Ask { line, shown, reachable, decided_by, rule, visited, expected, .. } => {
                    let checked = match expected {
                        Some(e) if e == reachable => format!("  expected {}", answer(*e)),
                        Some(e) => format!("  expected {}: MISMATCH", answer(*e)),
                        None => String::new(),
                    };
                    println!(
                        "{line:>5}  {shown}  {} ({}){checked}",
                        answer(*reachable),
                        decided(*decided_by, *rule, *visited)
                    );
                }
            }
        }
        let u = &self.updates;
        if u.edits > 0 {
            println!(
                "{} in {}: median {}, p99 {}, max {}; a rebuild of the edited graph takes {}",
                plural(u.edits as u64, "edit", "edits"),
                duration(u.total_seconds),
                duration(u.median_seconds),
                duration(u.p99_seconds),
                duration(u.max_seconds),
                duration(self.rebuild_seconds)
            );
        } else {
            println!("no edit changed the graph; a rebuild would take {}", duration(self.rebuild_seconds));
        }
        println!(
            "the edited graph: {} vertices, {} edges, {}",
            thousands(self.vertices as u64),
            thousands(self.edges as u64),
            plural(self.components as u64, "strongly connected component", "strongly connected components")
        );
        println!(
            "memory: {} for the edits (edges, components, intervals) beside {} of labels and query index",
            crate::format::bytes(self.edits_bytes as u64),
            crate::format::bytes(self.static_index_bytes as u64)
        );
        if self.questions > 0 {
            let wrong = self.mismatches.len();
            let any_expected = self.steps.iter().any(|done| matches!(done, Done::Ask { expected: Some(_), .. }));
            let verdict = match (wrong, any_expected) {
                (0, true) => "every expected answer matches".to_string(),
                (0, false) => "none says its expected answer".to_string(),
                (wrong, _) => format!("{wrong} MISMATCHED"),
            };
            let questions = plural(self.questions as u64, "question", "questions");
            println!("{questions} answered in {}: {verdict}", duration(self.questions_seconds));
        }
    }
}
