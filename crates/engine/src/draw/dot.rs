//! Graphviz DOT of the same picture, for people who lay graphs out with `dot`: intervals as node
//! labels, tree edges bold, search and stepper states as fill colours and styles, one `rank=same`
//! group per topological level so Graphviz keeps the layers, and a legend cluster.

use super::picture::Picture;
use super::style::{EdgeKind, NodeState};
use super::subgraph::Direction;
use std::fmt::Write;

/// The picture as a DOT digraph.
pub fn render(picture: &Picture) -> String {
    let mut out = String::from("digraph grail {\n");
    let mut title = picture.title.clone();
    for note in &picture.notes {
        title.push('\n');
        title.push_str(note);
    }
    let _ = writeln!(out, "  graph [rankdir=TB, labelloc=t, fontname=\"monospace\", label={}];", quote(&title));
    out.push_str("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"monospace\"];\n");
    out.push_str("  edge [color=\"#555555\"];\n");
    for (i, node) in picture.nodes.iter().enumerate() {
        let label = match node.detail() {
            Some(detail) => format!("{}\n{detail}", node.title()),
            None => node.title(),
        };
        let style = node.state.style();
        let fill = style.colour.map_or("#ffffff", |c| c.fill_hex());
        let mut attributes = vec![
            format!("label={}", quote(&label)),
            format!("fillcolor={}", quote(fill)),
            format!("style={}", quote(node_style(node.state))),
            format!("tooltip={}", quote(style.name)),
        ];
        if node.state == NodeState::Target {
            attributes.push("peripheries=2".into());
        }
        if node.member_count > 1 {
            attributes.push("penwidth=2".into());
        }
        let _ = writeln!(out, "  n{i} [{}];", attributes.join(", "));
    }
    for edge in &picture.edges {
        let style = edge.kind.style();
        let attributes = match (edge.kind, edge.dim) {
            (EdgeKind::Other, true) => "color=\"#bbbbbb\"".to_string(),
            (EdgeKind::Other, false) => String::new(),
            (kind, _) => format!(
                "style=bold, penwidth={}, color={}, tooltip={}",
                style.width,
                quote(style.colour.stroke_hex()),
                quote(kind.style().name)
            ),
        };
        let _ = writeln!(out, "  n{} -> n{} [{attributes}];", edge.from, edge.to);
    }
    for (i, cut) in picture.cuts.iter().enumerate() {
        let _ = writeln!(
            out,
            "  cut{i} [shape=plaintext, style=\"\", fontcolor=\"#666666\", label={}];",
            quote(&cut.text())
        );
        match cut.direction {
            Direction::Parents => {
                let _ = writeln!(out, "  cut{i} -> n{} [style=dashed, color=\"#999999\"];", cut.node);
            }
            Direction::Children => {
                let _ = writeln!(out, "  n{} -> cut{i} [style=dashed, color=\"#999999\"];", cut.node);
            }
        }
    }
    for layer in 0..picture.layers {
        let members: Vec<String> =
            picture.nodes.iter().enumerate().filter(|(_, n)| n.layer == layer).map(|(i, _)| format!("n{i};")).collect();
        if !members.is_empty() {
            let _ = writeln!(out, "  subgraph layer{layer} {{ rank=same; {} }}", members.join(" "));
        }
    }
    legend(&mut out, picture);
    out.push_str("}\n");
    out
}

/// Styles that tell states apart in black and white too.
fn node_style(state: NodeState) -> &'static str {
    match state {
        NodeState::Source | NodeState::Target | NodeState::Path | NodeState::Cycle => "rounded,filled,bold",
        NodeState::DeadEnd => "rounded,filled,dashed",
        NodeState::Pruned { .. } | NodeState::CutOff => "rounded,filled,dotted",
        NodeState::Plain | NodeState::Expanded | NodeState::Frontier(_) => "rounded,filled",
    }
}

fn legend(out: &mut String, picture: &Picture) {
    let legend = picture.legend();
    if legend.states.is_empty() && legend.edges.iter().all(|&k| k == EdgeKind::Other) {
        return;
    }
    out.push_str("  subgraph cluster_legend {\n    label=\"legend\";\n    style=dashed;\n");
    for (i, state) in legend.states.iter().enumerate() {
        let style = state.style();
        let fill = style.colour.map_or("#ffffff", |c| c.fill_hex());
        let _ = writeln!(
            out,
            "    legend_state{i} [label={}, fillcolor={}, style={}];",
            quote(&format!("{} {}", style.glyph, style.name)),
            quote(fill),
            quote(node_style(*state))
        );
    }
    for (i, kind) in legend.edges.iter().enumerate() {
        // Each edge kind as a short edge between two invisible points, named by its label.
        let (a, b) = (format!("legend_edge{i}a"), format!("legend_edge{i}b"));
        let style = kind.style();
        let _ = writeln!(out, "    {a} [shape=point, style=invis];");
        let _ = writeln!(out, "    {b} [shape=plaintext, style=\"\", label={}];", quote(style.name));
        let attributes = match kind {
            EdgeKind::Other => "color=\"#bbbbbb\"".to_string(),
            _ => format!("style=bold, penwidth={}, color={}", style.width, quote(style.colour.stroke_hex())),
        };
        let _ = writeln!(out, "    {a} -> {b} [{attributes}];");
    }
    out.push_str("  }\n");
}

/// A DOT quoted string (`"` and `\` escaped, newlines as `\n`).
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_escape() {
        assert_eq!(quote("a \"b\"\\\nc"), r#""a \"b\"\\\nc""#);
    }

    #[test]
    fn empty_picture_parses() {
        let dot = render(&Picture { title: "a \"quoted\" title".into(), ..Picture::default() });
        graphviz_rust::parse(&dot).unwrap();
    }
}
