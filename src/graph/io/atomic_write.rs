//! Every file grail writes (graphs in any format, `.grail` and index files, pictures, exports) goes
//! through [`write_atomically`]: the bytes go to a temporary file beside the target, which is
//! flushed, synced and renamed over the target. A failure at any point (a full disk, an error of
//! the writer, the process killed) leaves the old file as it was, never a truncated one.
//!
//! The temporary file is named `.NAME.grail-partial-PID` (NAME the target's file name, PID the
//! writing process), so a user who finds one knows what it is. One left behind by a process that
//! no longer runs is removed by the next write to the same folder. New files are created with mode
//! 0666 less the umask, as any program's files are (0644 under the usual umask 022).

use anyhow::{Context, Result, bail};
use std::ffi::OsStr;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// What separates a temporary file's target name from the writing process's id.
const PARTIAL_MARK: &str = ".grail-partial-";

/// Most characters of the target's name kept in the temporary file's name (file names are limited
/// to 255 bytes, and the temporary's adds a dot, the mark and a process id).
const NAME_KEPT: usize = 160;

/// Writes the file at `path` with `write`, which gets the new file (and does its own buffering and
/// flushing): all of it, or nothing and the old file untouched. Errors name the path.
pub fn write_atomically(path: &Path, write: impl FnOnce(&File) -> io::Result<()>) -> Result<()> {
    let Some(name) = path.file_name() else {
        bail!("{} is a folder, not a file name", path.display());
    };
    if path.is_dir() {
        bail!("{} is a folder, not a file name", path.display());
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    remove_stale_partials(dir);
    let temp = dir.join(partial_name(name, std::process::id()));
    let file =
        create_new(&temp).with_context(|| format!("cannot create {} (to write {})", temp.display(), path.display()))?;
    let written = write(&file).and_then(|()| file.sync_all());
    drop(file);
    let placed = written.with_context(|| format!("cannot write {}", path.display())).and_then(|()| {
        std::fs::rename(&temp, path).with_context(|| format!("cannot move the new file to {}", path.display()))
    });
    if placed.is_err() {
        let _ = std::fs::remove_file(&temp);
        return placed;
    }
    // The rename is durable once the folder is synced; a folder that cannot be synced (some file
    // systems refuse) still has the new file.
    if let Ok(folder) = File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// `.NAME.grail-partial-PID`.
fn partial_name(name: &OsStr, pid: u32) -> String {
    let name: String = name.to_string_lossy().chars().take(NAME_KEPT).collect();
    format!(".{name}{PARTIAL_MARK}{pid}")
}

/// The process id in a temporary file's name, when it is one of ours.
fn partial_pid(file_name: &OsStr) -> Option<u32> {
    let name = file_name.to_str()?;
    let (head, pid) = name.rsplit_once(PARTIAL_MARK)?;
    if !head.starts_with('.') || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Creates `path`, which must not exist yet. One there already is a leftover of a process that
/// had this process's id: it is replaced.
fn create_new(path: &Path) -> io::Result<File> {
    let open = || OpenOptions::new().write(true).create_new(true).open(path);
    match open() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(path)?;
            open()
        }
        other => other,
    }
}

/// Removes our temporary files in `dir` whose writing process no longer runs. Best effort: a
/// folder that cannot be listed, or a file that cannot be removed, is left as it is.
fn remove_stale_partials(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let stale: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| partial_pid(&entry.file_name()).is_some_and(|pid| !process_runs(pid)))
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .map(|entry| entry.path())
        .collect();
    for path in stale {
        let _ = std::fs::remove_file(path);
    }
}

/// Whether a process with id `pid` runs (or may run: where this cannot be known, it is assumed,
/// so that no file of a running writer is removed).
fn process_runs(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        if pid <= 0 {
            return true;
        }
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        alive || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_writer_failing_half_way_leaves_the_old_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "the good old file\n").unwrap();
        let error = write_atomically(&path, |mut file| {
            file.write_all(b"half of the new ")?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "no space left on device"))
        })
        .unwrap_err();
        assert!(format!("{error:#}").contains(&format!("cannot write {}", path.display())), "{error:#}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the good old file\n");
        assert_eq!(names_in(dir.path()), ["out.txt"], "no temporary file is left");
    }

    #[test]
    fn a_whole_write_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, |mut file| file.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names_in(dir.path()), ["out.txt"]);
    }

    #[test]
    fn the_temporary_file_says_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.gra");
        write_atomically(&path, |_| {
            assert_eq!(names_in(dir.path()), [format!(".g.gra.grail-partial-{}", std::process::id())]);
            Ok(())
        })
        .unwrap();
        assert_eq!(partial_pid(OsStr::new(".g.gra.grail-partial-42")), Some(42));
        assert_eq!(partial_pid(OsStr::new("g.gra.grail-partial-42")), None, "ours start with a dot");
        assert_eq!(partial_pid(OsStr::new(".g.gra.grail-partial-4x")), None);
    }

    #[test]
    fn stale_temporaries_of_dead_writers_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        // A child that has exited (and been waited for) is a process id that runs no more.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = dir.path().join(partial_name(OsStr::new("old.txt"), dead));
        let live = dir.path().join(partial_name(OsStr::new("busy.txt"), std::process::id()));
        std::fs::write(&stale, "left by a killed writer").unwrap();
        std::fs::write(&live, "being written").unwrap();
        std::fs::write(dir.path().join(".other.grail-partial-notapid"), "not ours").unwrap();
        write_atomically(&dir.path().join("new.txt"), |mut file| file.write_all(b"x")).unwrap();
        let names = names_in(dir.path());
        assert!(!names.contains(&stale.file_name().unwrap().to_string_lossy().into_owned()), "{names:?}");
        assert_eq!(names.len(), 3, "the live writer's file, the stranger and the new file: {names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn new_files_follow_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, |mut file| file.write_all(b"x")).unwrap();
        // SAFETY: umask only reads and sets this process's mask; it is put back at once.
        let umask = unsafe {
            let mask = libc::umask(0o022);
            libc::umask(mask);
            mask
        };
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !(umask as u32), "mode {mode:o} under umask {umask:o}");
    }

    #[test]
    fn a_folder_is_not_a_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let error = write_atomically(dir.path(), |_| Ok(())).unwrap_err();
        assert!(error.to_string().contains("is a folder"), "{error}");
    }
}
