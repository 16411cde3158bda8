//! SVG for slides: boxes with id and interval, tree edges bold, other edges thin grey, overlay states
//! as fill colours plus a glyph in the box, and a legend of what the picture shows. Hand-written
//! (a few elements; an SVG crate would add a dependency for string formatting).

use super::picture::{Picture, PictureNode};
use super::style::{EdgeKind, NodeState};
use super::subgraph::Direction;
use std::fmt::Write;

const FONT: f64 = 13.0;
/// Advance of one character of the monospace font at [`FONT`] (about 0.6 em).
const CHAR: f64 = 7.8;
const PAD: f64 = 8.0;
const MIN_BOX: f64 = 40.0;
/// Width of a column that only long edges pass through.
const DUMMY_COLUMN: f64 = 18.0;
const COLUMN_GAP: f64 = 18.0;
const LAYER_GAP: f64 = 58.0;
const MARGIN: f64 = 24.0;
const LINE: f64 = 18.0;

/// The picture as a standalone SVG document.
pub fn render(picture: &Picture) -> String {
    let geometry = Geometry::new(picture);
    let mut out = String::new();
    let header_lines = 1 + picture.notes.len();
    let top = MARGIN + header_lines as f64 * LINE + 8.0;
    let body_height = geometry.layer_top(picture.layers, top) - top;
    let rows = legend_rows(picture);
    let legend_top = top + body_height + 12.0;
    let height = legend_top + (rows.len() + 1) as f64 * LINE + MARGIN;
    // The title is set larger (15 px) than the rest.
    let title_width = picture.title.chars().count() as f64 * CHAR * 15.0 / FONT;
    let text_width = picture
        .notes
        .iter()
        .chain(rows.iter().map(|(_, text)| text))
        .map(|t| t.chars().count() as f64 * CHAR + 40.0)
        .fold(title_width, f64::max);
    let width = (geometry.width + 2.0 * MARGIN).max(text_width + 2.0 * MARGIN).max(200.0);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{FONT}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&picture.title));
    out.push_str(&markers());
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{:.1}" font-size="15" font-weight="bold">{}</text>"#,
        MARGIN + 4.0,
        escape(&picture.title)
    );
    for (i, note) in picture.notes.iter().enumerate() {
        let y = MARGIN + 4.0 + (i + 1) as f64 * LINE;
        let _ = writeln!(out, r##"<text x="{MARGIN}" y="{y:.1}" fill="#444">{}</text>"##, escape(note));
    }
    let x0 = MARGIN + ((width - 2.0 * MARGIN) - geometry.width).max(0.0) / 2.0;
    // Faint edges first, the emphasised ones over them, the boxes on top.
    let mut edges: Vec<_> = picture.edges.iter().collect();
    edges.sort_by_key(|e| (!e.dim, e.kind));
    for edge in edges {
        let (from, to) = (&picture.nodes[edge.from], &picture.nodes[edge.to]);
        let mut points =
            vec![(x0 + geometry.centre(from.column), geometry.layer_top(from.layer, top) + geometry.box_height)];
        for &(layer, column) in &edge.route {
            let x = x0 + geometry.centre(column);
            let y = geometry.layer_top(layer, top);
            points.push((x, y));
            points.push((x, y + geometry.box_height));
        }
        points.push((x0 + geometry.centre(to.column), geometry.layer_top(to.layer, top)));
        let d: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let style = edge.kind.style();
        let (stroke, width, marker) = match (edge.kind, edge.dim) {
            (EdgeKind::Other, true) => ("#bbbbbb", 1.0, "arrow-dim"),
            (EdgeKind::Other, false) => ("#555555", 1.2, "arrow-plain"),
            (EdgeKind::Tree, _) => (style.colour.stroke_hex(), style.width, "arrow-tree"),
            (EdgeKind::Path, _) => (style.colour.stroke_hex(), style.width, "arrow-path"),
        };
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{width}" marker-end="url(#{marker})"><title>{}</title></polyline>"#,
            d.join(" "),
            escape(&format!("{} → {}: {}", from.name(), to.name(), style.name))
        );
    }
    for node in &picture.nodes {
        node_box(&mut out, node, &geometry, x0, top);
    }
    for cut in &picture.cuts {
        let node = &picture.nodes[cut.node];
        let x = x0 + geometry.centre(node.column);
        let y = match cut.direction {
            Direction::Parents => geometry.layer_top(node.layer, top) - 5.0,
            Direction::Children => geometry.layer_top(node.layer, top) + geometry.box_height + 14.0,
        };
        let _ = writeln!(
            out,
            r##"<text x="{x:.1}" y="{y:.1}" text-anchor="middle" font-size="11" font-style="italic" fill="#666">{}</text>"##,
            escape(&cut.text())
        );
    }
    legend(&mut out, &rows, legend_top);
    out.push_str("</svg>\n");
    out
}

/// Column widths from the boxes in them; layer height from the lines a box holds.
struct Geometry {
    /// Left edge of each column (relative), and its width.
    left: Vec<f64>,
    widths: Vec<f64>,
    width: f64,
    box_height: f64,
}

impl Geometry {
    fn new(picture: &Picture) -> Geometry {
        let mut widths = vec![DUMMY_COLUMN; picture.columns as usize];
        for node in &picture.nodes {
            let w = &mut widths[node.column as usize];
            *w = w.max(box_width(node));
        }
        let mut left = Vec::with_capacity(widths.len());
        let mut x = 0.0;
        for w in &widths {
            left.push(x);
            x += w + COLUMN_GAP;
        }
        let two_lines = picture.nodes.iter().any(|n| n.detail().is_some());
        let box_height = if two_lines { 40.0 } else { 26.0 };
        Geometry { left, widths, width: (x - COLUMN_GAP).max(0.0), box_height }
    }

    fn centre(&self, column: u32) -> f64 {
        let c = column as usize;
        self.left.get(c).copied().unwrap_or(0.0) + self.widths.get(c).copied().unwrap_or(0.0) / 2.0
    }

    fn layer_top(&self, layer: u32, top: f64) -> f64 {
        top + 14.0 + layer as f64 * (self.box_height + LAYER_GAP)
    }
}

fn box_width(node: &PictureNode) -> f64 {
    let chars = node.title().chars().count().max(node.detail().map_or(0, |d| d.chars().count()));
    (chars as f64 * CHAR + 2.0 * PAD).max(MIN_BOX)
}

fn node_box(out: &mut String, node: &PictureNode, geometry: &Geometry, x0: f64, top: f64) {
    let width = box_width(node);
    let x = x0 + geometry.centre(node.column) - width / 2.0;
    let y = geometry.layer_top(node.layer, top);
    let style = node.state.style();
    let fill = style.colour.map_or("#ffffff", |c| c.fill_hex());
    // A component of several vertices gets a heavier, rounder box.
    let (border, radius) = if node.member_count > 1 { (2.2, 12.0) } else { (1.2, 4.0) };
    let mut tip = format!("{}: {}", node.name(), style.name);
    if let NodeState::Pruned { dim } = node.state {
        tip = format!("{}: pruned by the label of dimension {dim}", node.name());
    }
    let _ = writeln!(
        out,
        r##"<g><title>{}</title><rect x="{x:.1}" y="{y:.1}" width="{width:.1}" height="{:.1}" rx="{radius}" fill="{fill}" stroke="#333333" stroke-width="{border}"/>"##,
        escape(&tip),
        geometry.box_height
    );
    let cx = x + width / 2.0;
    let first = if node.detail().is_some() { y + 16.0 } else { y + 17.0 };
    let _ = writeln!(
        out,
        r#"<text x="{cx:.1}" y="{first:.1}" text-anchor="middle" font-weight="bold">{}</text>"#,
        escape(&node.title())
    );
    if let Some(detail) = node.detail() {
        let _ =
            writeln!(out, r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, y + 33.0, escape(&detail));
    }
    out.push_str("</g>\n");
}

/// What a legend row shows before its text.
enum Swatch {
    State(NodeState),
    Edge(EdgeKind),
    Text(&'static str),
}

fn legend_rows(picture: &Picture) -> Vec<(Swatch, String)> {
    let legend = picture.legend();
    let mut rows: Vec<(Swatch, String)> = Vec::new();
    for state in legend.states {
        rows.push((Swatch::State(state), state.style().name.to_string()));
    }
    for kind in legend.edges {
        let name = match (kind, picture.labeled_dim) {
            (EdgeKind::Tree, Some(dim)) => format!("{} (dimension {dim})", kind.style().name),
            _ => kind.style().name.to_string(),
        };
        rows.push((Swatch::Edge(kind), name));
    }
    if legend.components {
        rows.push((Swatch::Text("{ }"), "a strongly connected component: one box names its members".into()));
    }
    if picture.nodes.iter().any(|n| n.detail().is_some()) {
        rows.push((Swatch::Text("[ ]"), format!("[s, post] in dimension {}", picture.dim)));
    }
    if legend.cuts {
        rows.push((Swatch::Text("+N"), "parents (↑) or children (↓) not drawn".into()));
    }
    rows
}

fn legend(out: &mut String, rows: &[(Swatch, String)], top: f64) {
    if rows.is_empty() {
        return;
    }
    let _ =
        writeln!(out, r#"<g class="legend"><text x="{MARGIN}" y="{:.1}" font-weight="bold">legend</text>"#, top + 12.0);
    for (i, (swatch, text)) in rows.iter().enumerate() {
        let y = top + 12.0 + (i + 1) as f64 * LINE;
        let x = MARGIN;
        match swatch {
            Swatch::State(state) => {
                let style = state.style();
                let fill = style.colour.map_or("#ffffff", |c| c.fill_hex());
                let _ = writeln!(
                    out,
                    r##"<rect x="{x}" y="{:.1}" width="28" height="15" rx="3" fill="{fill}" stroke="#333333"/><text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                    y - 12.0,
                    x + 14.0,
                    y,
                    escape(&style.glyph.to_string())
                );
            }
            Swatch::Edge(kind) => {
                let style = kind.style();
                let stroke = if *kind == EdgeKind::Other { "#bbbbbb" } else { style.colour.stroke_hex() };
                let _ = writeln!(
                    out,
                    r#"<line x1="{x}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}" stroke-width="{}"/>"#,
                    y - 4.0,
                    x + 28.0,
                    y - 4.0,
                    style.width
                );
            }
            Swatch::Text(symbol) => {
                let _ = writeln!(
                    out,
                    r#"<text x="{:.1}" y="{y:.1}" text-anchor="middle" font-weight="bold">{}</text>"#,
                    x + 14.0,
                    escape(symbol)
                );
            }
        }
        let _ = writeln!(out, r#"<text x="{:.1}" y="{y:.1}">{}</text>"#, x + 40.0, escape(text));
    }
    out.push_str("</g>\n");
}

fn markers() -> String {
    let mut defs = String::from("<defs>\n");
    let kinds = [
        ("arrow-dim", "#bbbbbb"),
        ("arrow-plain", "#555555"),
        ("arrow-tree", EdgeKind::Tree.style().colour.stroke_hex()),
        ("arrow-path", EdgeKind::Path.style().colour.stroke_hex()),
    ];
    for (id, colour) in kinds {
        let _ = writeln!(
            defs,
            r#"<marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#
        );
    }
    defs.push_str("</defs>\n");
    defs
}

/// Text as XML character data or attribute value.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape(r#"a<b & "c"'"#), "a&lt;b &amp; &quot;c&quot;&apos;");
    }

    #[test]
    fn empty_picture_is_a_document() {
        let svg = render(&Picture { title: "nothing <here>".into(), ..Picture::default() });
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "svg");
    }
}
