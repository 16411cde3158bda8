//! Keeps the module layering honest: no import cycles between the files of `src/`, and the
//! top-level modules depend only downwards (the rules below). A failure lists every offending
//! dependency with the line that makes it, so the reader knows what to move.
//!
//! What counts as a dependency (a `use` or path naming an item another file defines; facades and
//! test-only code excluded) is explained in `layering_graph/edges.rs`.

mod layering_graph;

use layering_graph::{DependencyGraph, Rule, ShowCycle};
use std::path::Path;
use std::sync::OnceLock;

/// Parsed once per test binary: every test here reads the same graph.
fn src_graph() -> &'static DependencyGraph {
    static GRAPH: OnceLock<DependencyGraph> = OnceLock::new();
    GRAPH.get_or_init(|| {
        DependencyGraph::from_crate_dir(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// Lower layers never reach up. `from`/`except`/`never` are path prefixes.
const RULES: &[Rule] = &[
    Rule {
        from: &["src/graph/"],
        except: &[],
        never: &["src/index/", "src/query/", "src/gpu/", "src/tui/", "src/cli/"],
        why: "graph/ is the bottom layer (CSR, formats, generators): everything builds on it, it builds on nothing",
    },
    Rule {
        from: &["src/index/"],
        except: &[],
        never: &["src/gpu/", "src/tui/", "src/cli/"],
        why: "index/ is the CPU labeler: the GPU back end plugs in above it (the caller picks the back end), \
              so a machine without CUDA never reaches GPU code through it",
    },
    Rule {
        from: &["src/query/"],
        except: &[],
        never: &["src/gpu/", "src/tui/", "src/cli/"],
        why: "query/ answers on the CPU from labels; the GPU search and the front ends sit on top of it",
    },
    Rule {
        from: &["src/exact/"],
        except: &[],
        never: &["src/query/", "src/index/", "src/gpu/", "src/exact_run/", "src/backend/", "src/tui/", "src/cli/"],
        why: "exact/ sits beside query/: exact answers from the graph alone, no labels; its GPU versions and \
              the choice between them (exact_run/) sit above it",
    },
    Rule {
        from: &["src/query/"],
        except: &[],
        never: &["src/exact/", "src/exact_run/"],
        why: "query/ and exact/ share a row of the stack: neither imports the other",
    },
    Rule {
        from: &["src/gpu/"],
        except: &[],
        never: &["src/tui/", "src/cli/"],
        why: "gpu/ is a back end: the front ends call it, never the other way",
    },
    Rule {
        from: &["src/telemetry.rs"],
        except: &[],
        never: &["src/index/pipeline/", "src/index/dfs.rs", "src/gpu/", "src/backend/"],
        why: "telemetry is the sink every labeler reports into, so it cannot know about one labeler",
    },
    Rule {
        from: &["src/index/", "src/gpu/"],
        except: &[],
        never: &["src/backend/"],
        why: "backend/ chooses between the labelers (and falls back from one to another): they know nothing of it",
    },
    Rule {
        from: &["src/"],
        except: &["src/cli/", "src/main.rs", "src/lib.rs"],
        never: &["src/cli/"],
        why: "cli/ is the top: argument parsing and printing, called only by main.rs (through the crate root's `main`)",
    },
    Rule {
        from: &["src/"],
        except: &["src/tui/", "src/cli/", "src/main.rs", "src/lib.rs"],
        never: &["src/tui/"],
        why: "the explorer is a front end: only the command line (which starts it) may depend on it",
    },
];

/// The stack of docs/ARCHITECTURE.md ("Layering"), top row first: a file imports only from rows
/// below its own, never from a row above nor from another module of its row.
const STACK: &[&[&str]] = &[
    &["src/main.rs"],
    &["src/cli/"],
    &["src/tui/"],
    &["src/selftest.rs", "src/fuzzing.rs", "src/reachability.rs"],
    &["src/backend/", "src/draw/", "src/exact_run/", "src/weighted_run/"],
    &["src/gpu/"],
    &["src/exceptions/", "src/weighted/"],
    &["src/query/", "src/exact/"],
    &["src/index/"],
    &["src/workspace.rs"],
    &["src/graph/"],
    &["src/telemetry.rs"],
    &[
        "src/constants.rs",
        "src/format.rs",
        "src/system.rs",
        "src/prefetch.rs",
        "src/mix.rs",
        "src/error.rs",
        "src/rng.rs",
        "src/disjoint.rs",
    ],
];

/// Imports the stack allows although they point up, each with its reason.
const STACK_EXCEPTIONS: &[(&str, &str)] = &[
    // The events name the labels' order (a plain value) so that a trace says what it labeled.
    ("src/telemetry.rs", "src/index/order.rs"),
];

#[test]
fn the_stack_holds() {
    let graph = src_graph();
    let mut report = Vec::new();
    for (row, modules) in STACK.iter().enumerate() {
        let above: Vec<&'static str> = STACK[..row].iter().flat_map(|r| r.iter().copied()).collect();
        for &module in modules.iter() {
            let beside = modules.iter().copied().filter(|&m| m != module);
            let never: Vec<&'static str> = above.iter().copied().chain(beside).collect();
            let rule = Rule {
                from: Box::leak(vec![module].into_boxed_slice()),
                except: &[],
                never: Box::leak(never.into_boxed_slice()),
                why: "docs/ARCHITECTURE.md's stack: a row imports only from the rows below it",
            };
            let rule: &'static Rule = Box::leak(Box::new(rule));
            report.extend(
                graph
                    .violations(rule)
                    .into_iter()
                    .filter(|v| !STACK_EXCEPTIONS.contains(&(graph.path(v.from), graph.path(v.to))))
                    .map(|v| v.to_string()),
            );
        }
    }
    // Every file of src/ sits on some row, so a new module must be placed.
    let unplaced: Vec<&str> = graph
        .reached_files()
        .into_iter()
        .filter(|p| *p != "src/lib.rs" && !STACK.iter().flat_map(|r| r.iter()).any(|m| p.starts_with(m)))
        .collect();
    assert!(unplaced.is_empty(), "files on no row of the stack (add them to STACK and the doc): {unplaced:?}");
    assert!(report.is_empty(), "{} imports break the stack:\n{}", report.len(), report.join("\n"));
}

#[test]
fn the_checker_sees_the_real_crate() {
    let graph = src_graph();
    assert!(graph.unreached_files().is_empty(), "files no `mod` declaration reaches: {:?}", graph.unreached_files());
    assert!(graph.reached_files().len() > 100, "only {} files reached", graph.reached_files().len());
    assert!(graph.edge_count() > 100, "only {} dependencies between files found", graph.edge_count());
    // Dependencies that exist by design, through each way of naming an item: a `use` through a
    // re-export, a `use` of a module then a path through it, and an item named in code.
    assert!(!graph.evidence("src/query/engine.rs", "src/index/labels.rs").is_empty());
    assert!(!graph.evidence("src/lib.rs", "src/cli/mod.rs").is_empty());
    assert!(!graph.evidence("src/tui/mod.rs", "src/tui/app.rs").is_empty());
}

#[test]
fn no_cycles_between_files() {
    let graph = src_graph();
    let cycles = graph.cycles();
    let cuts: Vec<String> = graph
        .cycle_breaking_edges()
        .into_iter()
        .map(|((from, to), on)| format!("    {} (on {on} of the cycles left)", graph.show_edge(from, to)))
        .collect();
    let every: Vec<String> = cycles.iter().map(|cycle| ShowCycle { graph, cycle }.to_string()).collect();
    assert!(
        cycles.is_empty(),
        "{} import cycles between files.\n\
         Removing these imports breaks them all (picked greedily, the one on the most cycles first):\n{}\n\n\
         Every cycle (each import on a cycle appears in at least one):\n{}",
        cycles.len(),
        cuts.join("\n"),
        every.join("")
    );
}

#[test]
fn layering_rules_hold() {
    let graph = src_graph();
    let report: Vec<String> = RULES.iter().flat_map(|rule| graph.violations(rule)).map(|v| v.to_string()).collect();
    assert!(report.is_empty(), "{} dependencies break the layering:\n{}", report.len(), report.join("\n"));
}
