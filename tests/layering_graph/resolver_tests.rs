//! The checker on tiny in-memory crates, so that it cannot pass by resolving nothing.

use super::{DependencyGraph, Rule, ShowCycle};
use std::collections::BTreeMap;

fn graph(files: &[(&str, &str)]) -> DependencyGraph {
    let sources: BTreeMap<String, String> = files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
    DependencyGraph::from_sources(&sources).expect("the example crate builds")
}

fn edges(g: &DependencyGraph) -> Vec<(String, String)> {
    g.edges().into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

fn edge(from: &str, to: &str) -> (String, String) {
    (from.to_string(), to.to_string())
}

fn cycles(g: &DependencyGraph) -> Vec<String> {
    g.cycles().iter().map(|cycle| ShowCycle { graph: g, cycle }.to_string()).collect()
}

#[test]
fn a_cycle_between_two_files_is_found_with_the_lines_that_make_it() {
    let g = graph(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A(B);\n"),
        ("src/b.rs", "pub struct B;\npub fn make() -> Vec<u8> {\n    let _ = crate::a::A(B);\n    vec![]\n}\n"),
    ]);
    assert_eq!(edges(&g), [edge("src/a.rs", "src/b.rs"), edge("src/b.rs", "src/a.rs")]);
    assert_eq!(
        cycles(&g),
        ["src/a.rs -> src/b.rs -> src/a.rs\n    \
          src/a.rs:1: use crate::b::B\n    \
          src/b.rs:3: crate::a::A\n"]
    );
}

#[test]
fn a_longer_cycle_is_reported_once_whichever_edge_finds_it() {
    let g = graph(&[
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A(B);\n"),
        ("src/b.rs", "use crate::c::C;\npub struct B(C);\n"),
        ("src/c.rs", "pub struct C(Box<crate::a::A>);\n"),
    ]);
    let found = cycles(&g);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("src/a.rs -> src/b.rs -> src/c.rs -> src/a.rs\n"), "{found:?}");
}

#[test]
fn the_import_on_most_cycles_is_named_first_and_the_cuts_break_every_cycle() {
    // a -> b -> a and a -> b -> c -> a: a -> b is on both cycles, every other edge on one.
    let g = graph(&[
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A(B);\n"),
        ("src/b.rs", "use crate::c::C;\npub struct B(C, Box<crate::a::A>);\n"),
        ("src/c.rs", "pub struct C(Box<crate::a::A>);\n"),
    ]);
    assert_eq!(cycles(&g).len(), 2, "{:?}", cycles(&g));
    let cuts: Vec<String> =
        g.cycle_breaking_edges().iter().map(|&((from, to), on)| format!("{} {on}", g.show_edge(from, to))).collect();
    assert_eq!(cuts, ["src/a.rs -> src/b.rs at src/a.rs:1: use crate::b::B 2"]);
}

#[test]
fn a_pub_use_facade_is_not_a_dependency_of_the_parent() {
    // `m/mod.rs` re-exports its children, and `child` reaches its sibling through the facade: the
    // edge goes to the file defining `Helper`, and neither child depends on mod.rs.
    let g = graph(&[
        ("src/lib.rs", "pub mod m;\n"),
        ("src/m/mod.rs", "mod child;\nmod other;\npub use child::Thing;\npub use other::*;\n"),
        ("src/m/child.rs", "use super::Helper;\npub struct Thing(Helper);\n"),
        ("src/m/other.rs", "pub struct Helper;\n"),
    ]);
    assert_eq!(edges(&g), [edge("src/m/child.rs", "src/m/other.rs")]);
    assert!(g.cycles().is_empty());
}

#[test]
fn a_parent_using_a_child_item_in_its_own_code_depends_on_it() {
    // The shape of `graph/mod.rs` <-> `graph/io/mod.rs`: the parent's struct has a field of the
    // child's type, and the child uses the parent's struct.
    let g = graph(&[
        ("src/lib.rs", "pub mod graph;\n"),
        ("src/graph/mod.rs", "pub mod io;\npub struct Loaded { pub format: io::Format }\n"),
        ("src/graph/io/mod.rs", "use super::Loaded;\npub enum Format { Gra }\npub fn read() -> Loaded { todo!() }\n"),
    ]);
    assert_eq!(cycles(&g).len(), 1);
    assert_eq!(g.evidence("src/graph/mod.rs", "src/graph/io/mod.rs")[0].text, "io::Format");
}

#[test]
fn test_only_code_is_ignored() {
    let g = graph(&[
        ("src/lib.rs", "mod a;\nmod b;\n#[cfg(test)]\nmod helpers;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A(B);\n"),
        (
            "src/b.rs",
            "pub struct B;\n\
             #[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n\
             #[cfg(all(test, unix))]\nfn unix_helper() -> crate::a::A { todo!() }\n\
             impl B {\n    #[cfg(test)]\n    fn probe() { crate::a::A(B); }\n}\n",
        ),
        ("src/helpers.rs", "use crate::a::A;\n"),
    ]);
    assert_eq!(edges(&g), [edge("src/a.rs", "src/b.rs")]);
    assert!(g.unreached_files().is_empty(), "a test-only file is accounted for");
    assert_eq!(g.reached_files(), ["src/a.rs", "src/b.rs", "src/lib.rs"]);
}

#[test]
fn code_compiled_outside_tests_too_counts() {
    let g = graph(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "pub struct A;\n"),
        ("src/b.rs", "#[cfg(not(test))]\nuse crate::a::A;\n#[cfg(any(test, unix))]\nfn f() { crate::a::A; }\n"),
    ]);
    assert_eq!(g.evidence("src/b.rs", "src/a.rs").len(), 2);
}

#[test]
fn a_module_imported_by_name_resolves_through_to_the_defining_file() {
    let g = graph(&[
        ("src/lib.rs", "pub mod query;\npub mod gpu;\nmod user;\n"),
        ("src/query/mod.rs", "mod engine;\npub use engine::Engine;\n"),
        ("src/query/engine.rs", "pub struct Engine;\nimpl Engine { pub fn new() -> Engine { Engine } }\n"),
        ("src/gpu/mod.rs", "mod context;\npub mod probe;\npub use context::shared;\npub use probe::probe;\n"),
        ("src/gpu/context.rs", "pub fn shared() {}\n"),
        ("src/gpu/probe.rs", "pub fn probe() {}\npub struct Info;\n"),
        (
            "src/user.rs",
            "use crate::query;\nuse crate::gpu::probe as gpu_probe;\n\
             fn f() {\n    let _ = query::Engine::new();\n    crate::gpu::shared();\n    let _ = gpu_probe::Info;\n}\n",
        ),
    ]);
    assert_eq!(g.evidence("src/user.rs", "src/query/engine.rs")[0].text, "query::Engine::new");
    assert_eq!(g.evidence("src/user.rs", "src/gpu/context.rs")[0].text, "crate::gpu::shared");
    // `gpu::probe` is a module and a function: the import itself names the function's file.
    assert_eq!(g.evidence("src/user.rs", "src/gpu/probe.rs")[0].text, "use crate::gpu::probe");
    assert!(g.evidence("src/user.rs", "src/query/mod.rs").is_empty(), "naming a module is no dependency");
}

#[test]
fn aliases_groups_variants_and_macro_arguments_resolve() {
    let g = graph(&[
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\nmod user;\n"),
        ("src/a.rs", "pub struct A;\n"),
        ("src/b.rs", "pub enum Kind { One, Two }\n"),
        ("src/c.rs", "pub fn name() -> &'static str { \"c\" }\n"),
        ("src/d.rs", "pub trait Ext {}\n"),
        (
            "src/user.rs",
            "use crate::{a::A as Renamed, d::Ext as _};\nuse super::b;\n\
             fn f(_: Renamed) -> b::Kind {\n    println!(\"{}\", crate::c::name());\n    b::Kind::One\n}\n",
        ),
    ]);
    assert_eq!(g.evidence("src/user.rs", "src/a.rs")[0].text, "use crate::a::A");
    assert_eq!(g.evidence("src/user.rs", "src/b.rs")[0].text, "b::Kind");
    assert_eq!(g.evidence("src/user.rs", "src/c.rs")[0].text, "crate::c::name");
    assert_eq!(g.evidence("src/user.rs", "src/d.rs")[0].text, "use crate::d::Ext");
}

#[test]
fn the_binary_reaches_the_library_by_its_crate_name_and_other_crates_are_not_followed() {
    let g = graph(&[
        ("src/lib.rs", "pub mod cli;\n"),
        ("src/cli.rs", "use std::fmt;\nuse anyhow::Result;\npub fn main() -> Result<()> { Ok(()) }\n"),
        ("src/main.rs", "fn main() { grail::cli::main().unwrap(); }\n"),
    ]);
    assert_eq!(edges(&g), [edge("src/main.rs", "src/cli.rs")]);
}

#[test]
fn inline_modules_are_their_own_scope_in_their_file() {
    // `x` means `crate::c` outside `inner` and `crate::b` inside it: each `x::T` has one target.
    let g = graph(&[
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n"),
        (
            "src/a.rs",
            "use crate::c as x;\npub fn f() -> x::T { todo!() }\n\
             mod inner {\n    use crate::b as x;\n    pub fn g() -> x::T { todo!() }\n}\n",
        ),
        ("src/b.rs", "pub struct T;\n"),
        ("src/c.rs", "pub struct T;\n"),
        // A module inside a function body is no part of the module tree, and no trouble.
        ("src/d.rs", "fn f() {\n    mod local {\n        pub fn g() -> crate::b::T { todo!() }\n    }\n}\n"),
    ]);
    let lines = |from, to| g.evidence(from, to).iter().map(|e| e.line).collect::<Vec<_>>();
    assert_eq!(lines("src/a.rs", "src/c.rs"), [2]);
    assert_eq!(lines("src/a.rs", "src/b.rs"), [5]);
    assert_eq!(lines("src/d.rs", "src/b.rs"), [3]);
}

#[test]
fn a_file_no_mod_declaration_reaches_is_reported() {
    let g = graph(&[("src/lib.rs", "mod a;\n"), ("src/a.rs", ""), ("src/forgotten.rs", "")]);
    assert_eq!(g.unreached_files(), ["src/forgotten.rs"]);
}

#[test]
fn a_missing_module_file_is_an_error() {
    let sources = BTreeMap::from([("src/lib.rs".to_string(), "mod gone;\n".to_string())]);
    let error = DependencyGraph::from_sources(&sources).err().expect("mod gone; has no file");
    assert!(error.contains("src/gone.rs"), "{error}");
}

#[test]
fn rules_report_the_edges_that_break_them() {
    let g = graph(&[
        ("src/lib.rs", "mod low;\nmod high;\nmod top;\n"),
        ("src/low.rs", "use crate::high::H;\npub struct L(H);\n"),
        ("src/high.rs", "pub struct H;\n"),
        ("src/top.rs", "use crate::high::H;\npub struct T(H);\n"),
    ]);
    let rule = Rule { from: &["src/"], except: &["src/top.rs"], never: &["src/high.rs"], why: "high is on top" };
    let found: Vec<String> = g.violations(&rule).iter().map(ToString::to_string).collect();
    assert_eq!(found, ["src/low.rs -> src/high.rs at src/low.rs:1: use crate::high::H\n    rule: high is on top"]);
}
