//! Every file grail writes (graphs in any format, `.grail` and index files, pictures, exports, event
//! logs) goes through [`Staged`]: the bytes go to a temporary file in the target's folder, which is
//! flushed, synced and renamed over the target. A failure at any point (a full disk, an error of
//! the writer, the process killed) leaves the old file as it was, never a truncated one.
//!
//! Where the system offers unnamed files (Linux's `O_TMPFILE`), the temporary has no name while it
//! is written, so a process killed half-way leaves nothing behind; it is given the name
//! `.NAME.grail-partial-PID` only for the instant before the rename. Elsewhere it has that name
//! from the start (NAME the target's file name, PID the writing process), so a user who finds one
//! knows what it is, and one left behind by a process that no longer runs is removed by the next
//! write to the same folder.
//!
//! A new file is created with mode 0666 less the umask, as any program's files are; a file that is
//! replaced keeps its mode. A symbolic link is written through: its target is replaced, the link
//! stays. [`all_or_nothing`] puts the files a command writes in place together, only when the whole
//! command succeeded, and puts the old ones back when one cannot be put in place (`commit`);
//! meanwhile an old file has a second name beside it, `.NAME.grail-previous-PID`, removed like a
//! temporary file once its process no longer runs.

mod commit;
mod names;

use crate::error::IoContext;
use crate::{Error, Result};
use commit::{Change, Placeable, remove_now};
use names::{folder_of, partial_name, partial_pid};
use std::cell::RefCell;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Symbolic links followed to the file written, at most (the system's own limit is 40).
const MAX_LINKS: usize = 40;

/// Writes the file at `path` with `write`, which gets the new file (and does its own buffering and
/// flushing): all of it, or nothing and the old file untouched. Errors name the path.
pub fn write_atomically(path: &Path, write: impl FnOnce(&File) -> io::Result<()>) -> Result<()> {
    let staged = Staged::new(path)?;
    write(&staged.file)
        .and_then(|()| staged.file.sync_all())
        .io_context(path, || format!("cannot write {}", path.display()))?;
    staged.place()
}

/// A new file for `path`, written in full before it takes the target's place ([`Staged::place`]).
/// Dropped without being placed, it is removed and the target is left as it was.
#[derive(Debug)]
pub struct Staged {
    file: File,
    /// The path as given, for messages.
    shown: PathBuf,
    /// The file replaced: `shown`, or the file its symbolic links lead to.
    target: PathBuf,
    /// The temporary's name, where it has one while it is written.
    named: Option<PathBuf>,
}

impl Staged {
    /// Creates the temporary file for `path` in the folder of the file it will replace.
    pub fn new(path: &Path) -> Result<Staged> {
        let not_a_file = || Error::InvalidInput(format!("{} is a folder, not a file name", path.display()));
        if path.file_name().is_none() || path.is_dir() {
            return Err(not_a_file());
        }
        let target = through_links(path)?;
        let name = target.file_name().ok_or_else(not_a_file)?;
        let dir = folder_of(&target);
        remove_stale_partials(dir);
        let (file, named) = match unnamed_in(dir) {
            Some(file) => (file, None),
            None => {
                let temp = dir.join(partial_name(name, std::process::id()));
                let file = create_new(&temp)
                    .io_context(&temp, || format!("cannot create {} (to write {})", temp.display(), path.display()))?;
                (file, Some(temp))
            }
        };
        let staged = Staged { file, shown: path.to_path_buf(), target, named };
        // A file replaced keeps its mode (a private file stays private).
        if let Ok(old) = std::fs::metadata(&staged.target) {
            staged
                .file
                .set_permissions(old.permissions())
                .io_context(path, || format!("cannot give the new {} the old one's mode", path.display()))?;
        }
        Ok(staged)
    }

    /// The new file, to write to.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Puts the new file (synced by the caller) in the target's place, or, inside
    /// [`all_or_nothing`], once the whole work has succeeded.
    pub fn place(self) -> Result<()> {
        match defer(Change::Place(self)) {
            Some(Change::Place(staged)) => staged.rename(),
            _ => Ok(()),
        }
    }

    /// Renames the new file over the target and syncs the folder.
    fn rename(mut self) -> Result<()> {
        let dir = folder_of(&self.target).to_path_buf();
        let temp = match self.named.take() {
            Some(temp) => temp,
            None => {
                let temp = dir.join(partial_name(self.target.file_name().unwrap_or_default(), std::process::id()));
                link_unnamed(&self.file, &temp).io_context(&temp, || {
                    format!("cannot name the new file {} (to write {})", temp.display(), self.shown.display())
                })?;
                temp
            }
        };
        if let Err(e) = std::fs::rename(&temp, &self.target) {
            let _ = std::fs::remove_file(&temp);
            return Err(Error::io(&self.shown, format!("cannot move the new file to {}", self.shown.display()), e));
        }
        // The rename is durable once the folder is synced; a folder that cannot be synced (some file
        // systems refuse) still has the new file.
        if let Ok(folder) = File::open(&dir) {
            let _ = folder.sync_all();
        }
        Ok(())
    }
}

impl Write for Staged {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(temp) = self.named.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

impl Placeable for Staged {
    fn target(&self) -> &Path {
        &self.target
    }

    fn shown(&self) -> &Path {
        &self.shown
    }

    fn place_now(self) -> Result<()> {
        self.rename()
    }
}

/// What [`all_or_nothing`] does once its work has succeeded.
type Pending = Change<Staged>;

thread_local! {
    /// The files written inside [`all_or_nothing`] on this thread, waiting for its end.
    static BATCH: RefCell<Option<Vec<Pending>>> = const { RefCell::new(None) };
}

/// Keeps `pending` for the end of the [`all_or_nothing`] running on this thread; gives it back
/// when none runs.
fn defer(pending: Pending) -> Option<Pending> {
    BATCH.with(|batch| match batch.borrow_mut().as_mut() {
        Some(list) => {
            list.push(pending);
            None
        }
        None => Some(pending),
    })
}

/// Runs `work`, holding back the files it writes on this thread ([`write_atomically`],
/// [`Staged::place`], [`remove_on_success`]): when it fails, every target is left as it was; when
/// it succeeds, the new files are renamed over their targets one after the other. Each is whole
/// and synced by then, so only a failing rename (a target's folder removed meanwhile, a folder
/// made where a target was) can stop the others: those already renamed are then put back, and the
/// error is reported. Inside another `all_or_nothing`, the outer one decides. `work` may fail with
/// any error an engine error converts into (an `anyhow::Error`, say).
pub fn all_or_nothing<T, E: From<Error>>(work: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    let nested = BATCH.with(|batch| {
        let mut batch = batch.borrow_mut();
        let nested = batch.is_some();
        if !nested {
            *batch = Some(Vec::new());
        }
        nested
    });
    if nested {
        return work();
    }
    let result = work();
    let pending = BATCH.with(|batch| batch.borrow_mut().take()).unwrap_or_default();
    let value = result?;
    commit::commit(pending)?;
    Ok(value)
}

/// Removes the file at `path` (a missing one is fine), or inside [`all_or_nothing`], once the
/// whole work has succeeded.
pub fn remove_on_success(path: &Path) -> Result<()> {
    match defer(Change::Remove(path.to_path_buf())) {
        Some(Change::Remove(path)) => remove_now(&path),
        _ => Ok(()),
    }
}

/// The file `path` leads to through symbolic links (itself when it is none; a link to a missing
/// file leads to where that file would be).
fn through_links(path: &Path) -> Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link =
                    std::fs::read_link(&at).io_context(&at, || format!("cannot read the link {}", at.display()))?;
                at = if link.is_relative() { folder_of(&at).join(link) } else { link };
            }
            _ => return Ok(at),
        }
    }
    Err(Error::InvalidInput(format!("{}: too many levels of symbolic links", path.display())))
}

/// A file without a name in `dir`, where the system makes them (Linux's `O_TMPFILE`); None
/// elsewhere, or where the file system refuses.
fn unnamed_in(dir: &Path) -> Option<File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        OpenOptions::new().write(true).custom_flags(libc::O_TMPFILE).mode(0o666).open(dir).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        None
    }
}

/// Gives the unnamed `file` the name `temp` (one left there by a process of this id is replaced).
fn link_unnamed(file: &File, temp: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        use std::os::unix::io::AsRawFd;
        let invalid = |_| io::Error::from(io::ErrorKind::InvalidInput);
        let to = CString::new(temp.as_os_str().as_bytes()).map_err(invalid)?;
        let fd = file.as_raw_fd();
        let by_proc = CString::new(format!("/proc/self/fd/{fd}")).map_err(invalid)?;
        let link = || {
            // Through /proc any process may link its own open file; AT_EMPTY_PATH is the way
            // where /proc is not mounted (it needs a privilege).
            // SAFETY: both paths are NUL-terminated strings that outlive the calls; `fd` is open.
            let by_proc = unsafe {
                libc::linkat(libc::AT_FDCWD, by_proc.as_ptr(), libc::AT_FDCWD, to.as_ptr(), libc::AT_SYMLINK_FOLLOW)
            };
            if by_proc == 0 {
                return Ok(());
            }
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::AlreadyExists {
                return Err(error);
            }
            // SAFETY: as above.
            let by_fd = unsafe { libc::linkat(fd, c"".as_ptr(), libc::AT_FDCWD, to.as_ptr(), libc::AT_EMPTY_PATH) };
            if by_fd == 0 { Ok(()) } else { Err(error) }
        };
        match link() {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(temp)?;
                link()
            }
            other => other,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (file, temp);
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
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

/// Removes our temporary files (and kept old files) in `dir` whose writing process no longer
/// runs. Best effort: a folder that cannot be listed, or a file that cannot be removed, is left as
/// it is.
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
    use std::ffi::OsStr;
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
            let partial = format!(".g.gra.grail-partial-{}", std::process::id());
            // Unnamed while it is written where the system allows it: a kill then strands nothing.
            let expected: Vec<String> = if cfg!(target_os = "linux") { Vec::new() } else { vec![partial] };
            assert_eq!(names_in(dir.path()), expected);
            Ok(())
        })
        .unwrap();
        assert_eq!(names_in(dir.path()), ["g.gra"]);
        assert_eq!(partial_pid(OsStr::new(".g.gra.grail-partial-42")), Some(42));
        assert_eq!(partial_pid(OsStr::new("g.gra.grail-partial-42")), None, "ours start with a dot");
        assert_eq!(partial_pid(OsStr::new(".g.gra.grail-partial-4x")), None);
        assert_eq!(partial_pid(OsStr::new(".g.gra.grail-previous-42")), Some(42), "an old file kept");
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

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("private.txt");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomically(&path, |mut file| file.write_all(b"new")).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real/g.gra");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.gra");
        std::os::unix::fs::symlink("real/g.gra", &link).unwrap();
        write_atomically(&link, |mut file| file.write_all(b"new")).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        // A link to a file not there yet creates it.
        let dangling = dir.path().join("later.gra");
        std::os::unix::fs::symlink("real/new.gra", &dangling).unwrap();
        write_atomically(&dangling, |mut file| file.write_all(b"made")).unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join("real/new.gra")).unwrap(), "made");
        assert_eq!(names_in(&dir.path().join("real")), ["g.gra", "new.gra"]);
    }

    #[test]
    fn a_failing_work_leaves_every_file_it_wrote_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let (one, two, gone) = (dir.path().join("one"), dir.path().join("two"), dir.path().join("gone"));
        for path in [&one, &two, &gone] {
            std::fs::write(path, "old").unwrap();
        }
        let failed = all_or_nothing(|| {
            write_atomically(&one, |mut file| file.write_all(b"new"))?;
            remove_on_success(&gone)?;
            write_atomically(&dir.path().join("two/.."), |mut file| file.write_all(b"new"))
        });
        assert!(failed.is_err());
        assert_eq!(names_in(dir.path()), ["gone", "one", "two"]);
        assert_eq!(std::fs::read_to_string(&one).unwrap(), "old");
        all_or_nothing(|| {
            write_atomically(&one, |mut file| file.write_all(b"new"))?;
            assert_eq!(std::fs::read_to_string(&one).unwrap(), "old", "placed only at the end");
            remove_on_success(&gone)?;
            write_atomically(&two, |mut file| file.write_all(b"new"))
        })
        .unwrap();
        assert_eq!(names_in(dir.path()), ["one", "two"]);
        assert_eq!(std::fs::read_to_string(&two).unwrap(), "new");
    }

    #[test]
    fn a_folder_is_not_a_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let error = write_atomically(dir.path(), |_| Ok(())).unwrap_err();
        assert!(error.to_string().contains("is a folder"), "{error}");
    }
}
