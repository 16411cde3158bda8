//! The Picture tab's drawing as an SVG file, with `grail draw`'s writer: written to a temporary
//! file beside the target and renamed over it, so the target is replaced whole or not at all.

use crate::draw::{Picture, svg};
use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::Path;

/// Writes `picture` to `path` as SVG.
pub fn write_svg(picture: &Picture, path: &Path) -> Result<()> {
    if path.file_name().is_none() || path.is_dir() {
        bail!("{} is a folder, not a file name", path.display());
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut temp = tempfile::Builder::new()
        .prefix(".grail-picture-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    temp.write_all(svg::render(picture).as_bytes()).with_context(|| format!("writing {}", path.display()))?;
    // A temporary file is private to its owner; the picture is for slides, readable like any file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .with_context(|| format!("setting the permissions of {}", path.display()))?;
    }
    temp.as_file().sync_all().with_context(|| format!("syncing {}", path.display()))?;
    temp.persist(path).with_context(|| format!("moving the SVG into place at {}", path.display()))?;
    Ok(())
}
