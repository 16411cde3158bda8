//! The Picture tab's drawing as an SVG file, with `grail draw`'s writer, replacing the target whole
//! or not at all ([`write_atomically`]).

use crate::draw::{Picture, svg};
use crate::graph::io::write_atomically;
use anyhow::Result;
use std::io::Write;
use std::path::Path;

/// Writes `picture` to `path` as SVG.
pub fn write_svg(picture: &Picture, path: &Path) -> Result<()> {
    let text = svg::render(picture);
    Ok(write_atomically(path, |mut file| file.write_all(text.as_bytes()))?)
}
