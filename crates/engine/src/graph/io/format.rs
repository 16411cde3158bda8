//! The names of the formats, on their own so that what merely names a format (a loaded graph, the
//! command line) need not depend on the readers.

use serde::Serialize;

/// The file formats `grail` reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// GRAIL `.gra`: optional `graph_for_greach` line, vertex count, then `u: v1 v2 ... #` per vertex.
    Gra,
    /// SNAP-style edge list: `src dst` per line, `#`/`%` comments, any (sparse, huge) integer ids.
    EdgeList,
    /// Matrix Market coordinate (`%%MatrixMarket matrix coordinate ...`), 1-based, row -> column.
    MatrixMarket,
    /// Weighted edges: a header `n m directed` (or `undirected`), then `src dst weight` per line.
    Weighted,
    /// A plain `n m` header, then `src dst` per line (0-based).
    Header,
    /// An edge list whose vertices are names: `source,target` per line (a comma, a tab or spaces
    /// between; fields may be quoted), with an optional header line such as `source,target`.
    Named,
    /// grail's binary graph file (`grail convert G out.grail`): the graph and its condensation,
    /// memory-mapped when opened, never parsed. Recognised by its magic bytes.
    Grail,
}

impl Format {
    /// Whether a file of this format can hold a weight per edge: the weighted format's third
    /// column, a Matrix Market `real` matrix's values, a `.grail` file's weights section.
    pub fn holds_weights(self) -> bool {
        matches!(self, Format::Weighted | Format::MatrixMarket | Format::Grail)
    }

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Gra => "gra",
            Format::EdgeList => "edge-list",
            Format::MatrixMarket => "matrix-market",
            Format::Weighted => "weighted",
            Format::Header => "header",
            Format::Named => "named",
            Format::Grail => "grail",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
