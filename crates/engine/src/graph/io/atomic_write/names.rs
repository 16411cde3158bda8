//! The names of the files the writer makes beside a target: a temporary file being written
//! (`.NAME.grail-partial-PID`) and an old file kept while a command's outputs are put in place
//! (`.NAME.grail-previous-PID`), NAME the target's file name and PID the writing process, so that a
//! user who finds one knows what it is, and one left by a process that no longer runs is known as
//! stale.

use std::ffi::OsStr;
use std::path::Path;

/// What separates a temporary file's target name from the writing process's id.
const PARTIAL_MARK: &str = ".grail-partial-";

/// What separates a kept old file's target name from the writing process's id.
const OLD_MARK: &str = ".grail-previous-";

/// Most characters of the target's name kept in the file's name (file names are limited to 255
/// bytes, and ours add a dot, the mark and a process id).
const NAME_KEPT: usize = 160;

/// The folder a file is in (`.` for a bare name).
pub(super) fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// `.NAME.grail-partial-PID`.
pub(super) fn partial_name(name: &OsStr, pid: u32) -> String {
    name_with(name, PARTIAL_MARK, pid)
}

/// `.NAME.grail-previous-PID`.
pub(super) fn old_name(name: &OsStr, pid: u32) -> String {
    name_with(name, OLD_MARK, pid)
}

fn name_with(name: &OsStr, mark: &str, pid: u32) -> String {
    let name: String = name.to_string_lossy().chars().take(NAME_KEPT).collect();
    format!(".{name}{mark}{pid}")
}

/// The process id in the name of a temporary file or a kept old file, when it is one of ours.
pub(super) fn partial_pid(file_name: &OsStr) -> Option<u32> {
    let name = file_name.to_str()?;
    let (head, pid) = name.rsplit_once(PARTIAL_MARK).or_else(|| name.rsplit_once(OLD_MARK))?;
    if !head.starts_with('.') || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}
