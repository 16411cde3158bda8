//! Build a reachability index over a small graph, ask it, and read why it answered.
//!
//! `cargo run --release --example quickstart`

use grail::{Index, Settings};

fn main() -> Result<(), grail::Error> {
    // A small citation-like graph with one cycle (1 → 2 → 3 → 1), which the index condenses.
    let edges = [(0, 1), (1, 2), (2, 3), (3, 1), (3, 4), (0, 5), (5, 6), (7, 6)];
    let index = Index::from_edges(8, &edges, &Settings::default())?;

    for (u, v) in [(0, 4), (4, 0), (7, 4), (2, 1)] {
        let why = index.explain(u, v)?;
        let answer = if why.reachable { "yes" } else { "no" };
        println!("{u} ⇝ {v}? {answer}, decided by {}", why.rule);
        for (rule, reading, outcome) in &why.checks {
            println!("    {rule}: {reading} ({})", grail::query::explain::outcome_word(*outcome));
        }
        println!("    {}", why.sentence);
    }

    // Many pairs at once, on every core.
    let pairs: Vec<(u64, u64)> = (0..8).flat_map(|u| (0..8).map(move |v| (u, v))).collect();
    let answers = index.reaches_all(&pairs)?;
    let reachable = answers.iter().filter(|&&yes| yes).count();
    println!("{reachable} of {} ordered pairs are reachable", pairs.len());

    // Asking about a vertex the graph does not have is an error, not a panic.
    match index.reaches(0, 99) {
        Err(grail::Error::NoSuchVertex { vertex, vertices }) => {
            println!("vertex {vertex}: no such vertex (of {vertices})")
        }
        other => println!("unexpected: {other:?}"),
    }
    Ok(())
}
