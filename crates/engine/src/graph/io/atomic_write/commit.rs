//! Putting the files of one [`super::all_or_nothing`] in place, all of them or none: before a file
//! is replaced or removed, the old one gets a second name beside it (a hard link, so the target
//! itself stays in place until the rename replaces it); when a later step fails, the steps done are
//! undone in reverse order, each old file renamed back over the new one, and only then is the
//! error reported. Once every step is done, the second names are removed.

use super::names::{folder_of, old_name};
use crate::error::IoContext;
use crate::{Error, Result};
use std::io;
use std::path::{Path, PathBuf};

/// One change a command's outputs make once it has succeeded.
pub(super) enum Change<P> {
    /// A new file, written in full, takes its target's place.
    Place(P),
    /// A file is removed (a missing one is fine).
    Remove(PathBuf),
}

/// A new file, written in full, that can take its target's place.
pub(super) trait Placeable {
    /// The file it replaces.
    fn target(&self) -> &Path;
    /// The target as the user named it, for messages.
    fn shown(&self) -> &Path;
    /// Renames it over the target.
    fn place_now(self) -> Result<()>;
}

/// How to undo one step.
enum Undo {
    /// Rename the old file, kept under this name, back over the target.
    PutBack { target: PathBuf, kept: PathBuf },
    /// Remove the target, which did not exist before.
    Remove(PathBuf),
    /// Nothing was changed (a file to remove was not there).
    Nothing,
}

/// Makes every change; on a failure, puts back what was there before.
pub(super) fn commit<P: Placeable>(changes: Vec<Change<P>>) -> Result<()> {
    let mut done = Vec::with_capacity(changes.len());
    // Files not reached when a change fails are dropped with the iterator: their temporaries go.
    for change in changes {
        let result = match change {
            Change::Place(new) => place(new),
            Change::Remove(path) => remove(&path),
        };
        match result {
            Ok(undo) => done.push(undo),
            Err(error) => return Err(undo_all(done, error)),
        }
    }
    for undo in done {
        if let Undo::PutBack { kept, .. } = undo {
            let _ = std::fs::remove_file(kept);
        }
    }
    Ok(())
}

/// Renames the new file over its target, the old one kept.
fn place(new: impl Placeable) -> Result<Undo> {
    let target = new.target().to_path_buf();
    let kept = keep_old(&target, new.shown())?;
    match new.place_now() {
        Ok(()) => Ok(match kept {
            Some(kept) => Undo::PutBack { target, kept },
            None => Undo::Remove(target),
        }),
        Err(error) => {
            if let Some(kept) = kept {
                let _ = std::fs::remove_file(kept);
            }
            Err(error)
        }
    }
}

/// Removes `path`, the old file kept.
fn remove(path: &Path) -> Result<Undo> {
    let Some(kept) = keep_old(path, path)? else {
        return Ok(Undo::Nothing);
    };
    match remove_now(path) {
        Ok(()) => Ok(Undo::PutBack { target: path.to_path_buf(), kept }),
        Err(error) => {
            let _ = std::fs::remove_file(kept);
            Err(error)
        }
    }
}

/// Gives the file at `target` a second name beside it, when there is one (a folder is none: no
/// file can replace it); `shown` names the target in messages.
fn keep_old(target: &Path, shown: &Path) -> Result<Option<PathBuf>> {
    match std::fs::symlink_metadata(target) {
        Ok(meta) if !meta.is_dir() => {}
        _ => return Ok(None),
    }
    let name = target.file_name().unwrap_or_default();
    let kept = folder_of(target).join(old_name(name, std::process::id()));
    // One left by an earlier process of this id is stale.
    let _ = std::fs::remove_file(&kept);
    std::fs::hard_link(target, &kept)
        .or_else(|_| std::fs::copy(target, &kept).map(|_| ()))
        .io_context(target, || format!("cannot keep the old {} while it is replaced", shown.display()))?;
    Ok(Some(kept))
}

/// Undoes the steps `done`, last first; the error says what could not be put back, and where the
/// old file is then.
fn undo_all(done: Vec<Undo>, error: Error) -> Error {
    let mut stuck = Vec::new();
    for undo in done.into_iter().rev() {
        let undone = match &undo {
            Undo::PutBack { target, kept } => std::fs::rename(kept, target),
            Undo::Remove(target) => std::fs::remove_file(target),
            Undo::Nothing => Ok(()),
        };
        match (undone, &undo) {
            (Ok(()), _) | (Err(_), Undo::Nothing) => {}
            (Err(e), Undo::PutBack { target, kept }) => {
                stuck.push(format!("{} (the old one is {}: {e})", target.display(), kept.display()))
            }
            (Err(e), Undo::Remove(target)) => stuck.push(format!("{} (new, not removed: {e})", target.display())),
        }
    }
    if stuck.is_empty() {
        return error.context("every output is left as it was");
    }
    error.context(format!("these outputs were replaced and could not be put back: {}", stuck.join(", ")))
}

/// Removes the file at `path` now (a missing one is fine).
pub(super) fn remove_now(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            Err(Error::io(path, format!("cannot remove {}", path.display()), e))
        }
        _ => Ok(()),
    }
}
