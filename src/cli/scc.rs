//! `grail scc`: where the cycles are: the largest strongly connected components, their members and
//! a shortest cycle of each, in the file's own vertex ids.

use super::common::GraphArgs;
use super::output::{Output, Report, vertex_text};
use crate::format::thousands;
use crate::graph::VertexNames;
use crate::graph::cycles::{self, Cycles};
use anyhow::Result;
use clap::Args;
use serde::Serialize;

/// Members listed per component unless `--members` asks for all.
const MEMBERS_SHOWN: usize = 10;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grail scc edges.txt\n  grail scc graph.gra --top 3 --members --json\n\nMembers are listed by file id, or in the order the file first names them where vertices are names. The cycle is a shortest of the component (a search from every member, within a budget; a component too large for it gets the shortest found and says so), from its smallest file id (or its first-named vertex) back to it."
)]
pub struct SccArgs {
    #[command(flatten)]
    pub graph: GraphArgs,

    /// How many components to list, largest first (at least 1).
    #[arg(long, default_value_t = 10, value_name = "K", value_parser = super::values::whole::<u64, 1, { u64::MAX }>)]
    pub top: u64,

    /// List every member of each component (default: the 10 smallest file ids, or for names the
    /// first 10 in the file).
    #[arg(long)]
    pub members: bool,

    #[command(flatten)]
    pub output: Output,
}

#[derive(Serialize)]
struct SccReport {
    file: String,
    vertices: u64,
    components: u64,
    /// Components of two or more vertices.
    cyclic_components: u64,
    vertices_in_cycles: u64,
    largest: Vec<ComponentReport>,
}

#[derive(Serialize)]
struct ComponentReport {
    /// The row's number in the table, largest first: what `grail convert --scc` takes.
    rank: u64,
    /// The component's vertex in the condensation DAG (its id there, not its rank).
    condensation_vertex: u32,
    size: u32,
    /// File ids by increasing id (names: in order of first appearance in the file); all of them
    /// when `members_complete`.
    members: Vec<serde_json::Value>,
    members_complete: bool,
    /// File ids (or names) of a shortest cycle, from its smallest file id (or first-named vertex)
    /// back to it.
    cycle: Vec<serde_json::Value>,
    /// Whether `cycle` is a shortest of the whole component (false: the component was too large to
    /// search from every member, and it is the shortest found).
    cycle_is_shortest: bool,
}

pub fn run(args: SccArgs) -> Result<()> {
    let ws = args.graph.open()?;
    let limit = (!args.members).then_some(MEMBERS_SHOWN);
    let found = cycles::largest_cyclic(
        &ws.loaded.graph,
        &ws.condensation,
        usize::try_from(args.top).unwrap_or(usize::MAX),
        None,
    );
    args.output.show(&report(&ws.loaded.path.display().to_string(), &ws, &found, limit))
}

/// The report, each component's members listed by file id (names: in the file's order), at most
/// `limit` of them.
fn report(file: &str, ws: &crate::workspace::Workspace, found: &Cycles, limit: Option<usize>) -> SccReport {
    let names: &VertexNames = &ws.loaded.names;
    let ids = |list: &[u32]| list.iter().map(|&v| names.json_id(v)).collect::<Vec<_>>();
    let listed = |members: &[u32]| {
        let mut members = members.to_vec();
        members.sort_unstable_by_key(|&v| names.listing_key(v));
        members.truncate(limit.unwrap_or(usize::MAX));
        ids(&members)
    };
    SccReport {
        file: file.to_string(),
        vertices: ws.loaded.graph.num_vertices() as u64,
        components: ws.condensation.num_components() as u64,
        cyclic_components: found.cyclic_components,
        vertices_in_cycles: found.vertices_in_cycles,
        largest: found
            .largest
            .iter()
            .zip(1..)
            .map(|(c, rank)| ComponentReport {
                rank,
                condensation_vertex: c.component,
                size: c.size,
                members: listed(&c.members),
                members_complete: limit.is_none_or(|l| c.members.len() <= l),
                cycle: ids(&cycles::from_first_listed(&c.cycle, names)),
                cycle_is_shortest: c.shortest_in_component,
            })
            .collect(),
    }
}

impl Report for SccReport {
    fn print(&self) {
        println!("file       {}", self.file);
        if self.cyclic_components == 0 {
            let each = match self.vertices {
                1 => "the one vertex is".to_string(),
                n => format!("each of the {} vertices is", thousands(n)),
            };
            println!("no cycles: {each} a component of its own (the graph is a DAG)");
            return;
        }
        println!(
            "cycles     {} of {} components hold two or more vertices, {} of {} vertices in all",
            thousands(self.cyclic_components),
            thousands(self.components),
            thousands(self.vertices_in_cycles),
            thousands(self.vertices)
        );
        println!();
        let members: Vec<String> = self
            .largest
            .iter()
            .map(|c| {
                let mut members = c.members.iter().map(vertex_text).collect::<Vec<_>>().join(" ");
                if !c.members_complete {
                    members += &format!(" ... ({} more)", thousands(u64::from(c.size) - c.members.len() as u64));
                }
                members
            })
            .collect();
        // As wide as the widest list (up to 80 columns), so the cycles line up; a longer list puts
        // its cycle on the next line.
        let width = members.iter().map(|m| m.chars().count()).max().unwrap_or(0).clamp("members".len(), 80);
        println!("{:>4}  {:>10}  {:<width$}  a shortest cycle", "#", "size", "members");
        for (rank, (c, members)) in self.largest.iter().zip(&members).enumerate() {
            let mut cycle = c.cycle.iter().map(vertex_text).collect::<Vec<_>>().join(" → ");
            if !c.cycle_is_shortest {
                cycle += "  (the shortest found: the component is too large to search whole)";
            }
            let size = thousands(u64::from(c.size));
            if members.chars().count() <= width {
                println!("{:>4}  {size:>10}  {members:<width$}  {cycle}", rank + 1);
            } else {
                // Too long for the column: the cycle goes under it, on a line of its own.
                println!("{:>4}  {size:>10}  {members}", rank + 1);
                println!("{:>4}  {:>10}  {:<width$}  {cycle}", "", "", "");
            }
        }
        if (self.largest.len() as u64) < self.cyclic_components {
            let rest = self.cyclic_components - self.largest.len() as u64;
            println!("({} smaller not listed: --top)", thousands(rest));
        }
    }
}
