//! Compiled kernels kept on disk, so only a machine's first run pays NVRTC.
//!
//! An entry is one module's cubin under a name made of everything that decides its code: the
//! module, the device architecture, the NVRTC and driver versions and a hash of the source (with
//! the shared constants in place). A change to any of them names another file, so a stale entry is
//! never read. Each file starts with a header (magic, key, payload length, payload hash): a file cut
//! short or overwritten reads as corrupt, and the caller compiles again and overwrites it.
//!
//! Writes go to a temporary file in the same folder, renamed over the entry: two processes that
//! compile the same module at once each rename a whole file, and a reader sees one or the other.
//!
//! The folder is `$GRAIL_CACHE_DIR`, else `$XDG_CACHE_HOME/grail`, else `~/.cache/grail`, with the
//! entries in its `kernels/` subfolder. This module knows nothing of CUDA: the bytes it keeps are
//! opaque to it, so its rules are tested without a GPU.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of every entry; a change of layout changes it.
const MAGIC: &[u8; 8] = b"GRAILK01";

/// What decides a compiled module's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheKey {
    /// The module's name (`labeling`).
    pub module: String,
    /// NVRTC's `--gpu-architecture` (`sm_90`).
    pub arch: String,
    /// NVRTC's version, major and minor.
    pub nvrtc: (i32, i32),
    /// The driver's version, as `cuDriverGetVersion` gives it (`12040`).
    pub driver: i32,
    /// xxh3 of the source NVRTC compiles.
    pub source_hash: u64,
}

impl CacheKey {
    pub fn new(module: &str, source: &str, arch: &str, nvrtc: (i32, i32), driver: i32) -> CacheKey {
        CacheKey {
            module: module.to_string(),
            arch: arch.to_string(),
            nvrtc,
            driver,
            source_hash: xxhash_rust::xxh3::xxh3_64(source.as_bytes()),
        }
    }

    /// The entry's file name: every part of the key, readable.
    pub fn file_name(&self) -> String {
        let (major, minor) = self.nvrtc;
        format!(
            "{}-{}-nvrtc{major}.{minor}-driver{}-{:016x}.cubin",
            self.module, self.arch, self.driver, self.source_hash
        )
    }
}

/// What a look-up found.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The entry, whole.
    Hit(Vec<u8>),
    /// No entry for this key.
    Miss,
    /// An entry that is not whole, or holds another key's code; why, in words.
    Corrupt(String),
}

/// The folder of cached kernels, created and known to be writable.
#[derive(Clone, Debug)]
pub struct KernelCache {
    dir: PathBuf,
}

/// The cache folder the environment names (see the module's comment); none without a home.
pub fn default_dir() -> Option<PathBuf> {
    dir_from(|name| std::env::var_os(name))
}

/// [`default_dir`] with the environment read through `env` (relative paths are ignored, as the
/// XDG rules say).
fn dir_from(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let var = |name| env(name).map(PathBuf::from).filter(|p| p.is_absolute());
    if let Some(dir) = var("GRAIL_CACHE_DIR") {
        return Some(dir);
    }
    let base = var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|home| home.join(".cache")))?;
    Some(base.join("grail"))
}

impl KernelCache {
    /// The cache in [`default_dir`]; the error says why there is none (no home, or the folder
    /// cannot be created or written).
    pub fn open_default() -> Result<KernelCache, String> {
        let dir = default_dir().ok_or("neither GRAIL_CACHE_DIR, XDG_CACHE_HOME nor HOME is set")?;
        KernelCache::open(&dir)
    }

    /// The cache under `root` (entries in `root/kernels`); the error says why it cannot be used.
    pub fn open(root: &Path) -> Result<KernelCache, String> {
        let dir = root.join("kernels");
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        // Creating a file is the one sure test of writing (permissions, read-only mounts, quotas).
        tempfile::NamedTempFile::new_in(&dir).map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
        Ok(KernelCache { dir })
    }

    /// The folder the entries live in.
    #[cfg(test)]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The entry's path.
    pub fn path(&self, key: &CacheKey) -> PathBuf {
        self.dir.join(key.file_name())
    }

    /// The entry for `key`, checked whole.
    pub fn load(&self, key: &CacheKey) -> Lookup {
        match std::fs::read(self.path(key)) {
            Ok(bytes) => decode(&bytes, key),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Lookup::Miss,
            Err(e) => Lookup::Corrupt(format!("cannot read {}: {e}", self.path(key).display())),
        }
    }

    /// Writes the entry for `key` (a temporary file renamed over it), replacing any there.
    pub fn store(&self, key: &CacheKey, payload: &[u8]) -> Result<(), String> {
        let path = self.path(key);
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
        let mut file = tempfile::NamedTempFile::new_in(&self.dir).map_err(fail)?;
        file.write_all(&encode(key, payload)).map_err(fail)?;
        file.persist(&path).map_err(|e| fail(e.error))?;
        Ok(())
    }
}

/// The key as the header holds it.
fn key_text(key: &CacheKey) -> String {
    key.file_name()
}

/// Header (magic, key length and key, payload length, payload hash), then the payload.
fn encode(key: &CacheKey, payload: &[u8]) -> Vec<u8> {
    let key = key_text(key);
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + key.len() + 16 + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(key.len() as u32).to_le_bytes());
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of an entry written by [`encode`] for `key`, or why it is not one.
fn decode(bytes: &[u8], key: &CacheKey) -> Lookup {
    let mut rest = bytes;
    let mut take = |n: usize| -> Option<&[u8]> {
        let (head, tail) = rest.split_at_checked(n)?;
        rest = tail;
        Some(head)
    };
    let corrupt = |why: &str| Lookup::Corrupt(format!("{}: {why}", key.file_name()));
    if take(MAGIC.len()) != Some(MAGIC.as_slice()) {
        return corrupt("not a kernel cache entry");
    }
    let Some(key_len) = take(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize) else {
        return corrupt("cut short");
    };
    if take(key_len) != Some(key_text(key).as_bytes()) {
        return corrupt("holds another key's code");
    }
    let (Some(len), Some(hash)) = (take(8), take(8)) else { return corrupt("cut short") };
    let (len, hash) = (u64::from_le_bytes(len.try_into().unwrap()), u64::from_le_bytes(hash.try_into().unwrap()));
    if rest.len() as u64 != len {
        return corrupt(&format!("{} bytes of code where the header says {len}", rest.len()));
    }
    if xxhash_rust::xxh3::xxh3_64(rest) != hash {
        return corrupt("its code does not match its checksum");
    }
    Lookup::Hit(rest.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> CacheKey {
        CacheKey::new("labeling", "__global__ void k() {}", "sm_90", (12, 4), 12040)
    }

    fn cache() -> (tempfile::TempDir, KernelCache) {
        let root = tempfile::tempdir().unwrap();
        let cache = KernelCache::open(root.path()).unwrap();
        (root, cache)
    }

    #[test]
    fn a_stored_entry_comes_back_whole() {
        let (_root, cache) = cache();
        assert_eq!(cache.load(&key()), Lookup::Miss);
        cache.store(&key(), b"fake cubin bytes").unwrap();
        assert_eq!(cache.load(&key()), Lookup::Hit(b"fake cubin bytes".to_vec()));
        // Storing again replaces the entry.
        cache.store(&key(), b"other bytes").unwrap();
        assert_eq!(cache.load(&key()), Lookup::Hit(b"other bytes".to_vec()));
        let names: Vec<String> = std::fs::read_dir(cache.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, [key().file_name()], "no temporary file is left behind");
    }

    #[test]
    fn every_part_of_the_key_names_another_entry() {
        let base = key();
        let source = CacheKey::new("labeling", "__global__ void k() { }", "sm_90", (12, 4), 12040);
        let arch = CacheKey { arch: "sm_80".into(), ..base.clone() };
        let nvrtc = CacheKey { nvrtc: (12, 8), ..base.clone() };
        let driver = CacheKey { driver: 12080, ..base.clone() };
        let module = CacheKey { module: "search".into(), ..base.clone() };
        let (_root, cache) = cache();
        cache.store(&base, b"code").unwrap();
        for other in [source, arch, nvrtc, driver, module] {
            assert_ne!(other.file_name(), base.file_name());
            assert_eq!(cache.load(&other), Lookup::Miss, "{other:?}");
        }
        assert!(base.file_name().starts_with("labeling-sm_90-nvrtc12.4-driver12040-"), "{}", base.file_name());
    }

    #[test]
    fn a_damaged_entry_reads_as_corrupt_and_is_overwritten() {
        let (_root, cache) = cache();
        cache.store(&key(), b"fake cubin bytes").unwrap();
        let path = cache.path(&key());
        let whole = std::fs::read(&path).unwrap();

        std::fs::write(&path, &whole[..whole.len() - 3]).unwrap();
        assert!(matches!(cache.load(&key()), Lookup::Corrupt(why) if why.contains("header says")));

        let mut flipped = whole.clone();
        *flipped.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert!(matches!(cache.load(&key()), Lookup::Corrupt(why) if why.contains("checksum")));

        std::fs::write(&path, b"GRAIL").unwrap();
        assert!(matches!(cache.load(&key()), Lookup::Corrupt(why) if why.contains("not a kernel cache entry")));

        std::fs::write(&path, &whole[..10]).unwrap();
        assert!(matches!(cache.load(&key()), Lookup::Corrupt(why) if why.contains("cut short")));

        // An entry renamed under another key's name is not taken for it.
        let other = CacheKey { driver: 1, ..key() };
        std::fs::write(cache.path(&other), &whole).unwrap();
        assert!(matches!(cache.load(&other), Lookup::Corrupt(why) if why.contains("another key")));

        cache.store(&key(), b"fake cubin bytes").unwrap();
        assert_eq!(cache.load(&key()), Lookup::Hit(b"fake cubin bytes".to_vec()));
    }

    #[test]
    fn racing_writers_leave_one_whole_entry() {
        let (_root, cache) = cache();
        let payloads: Vec<Vec<u8>> = (0..8u8).map(|i| vec![i; 64 << 10]).collect();
        let payloads = &payloads;
        std::thread::scope(|s| {
            for p in payloads {
                let cache = cache.clone();
                s.spawn(move || {
                    for _ in 0..10 {
                        cache.store(&key(), p).unwrap();
                        match cache.load(&key()) {
                            Lookup::Hit(bytes) => assert!(payloads.contains(&bytes)),
                            other => panic!("{other:?}"),
                        }
                    }
                });
            }
        });
        assert!(matches!(cache.load(&key()), Lookup::Hit(bytes) if payloads.contains(&bytes)));
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_that_cannot_be_written_is_refused_with_its_reason() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let locked = root.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root writes anywhere; the refusal is only observable for other users.
        let writable = tempfile::NamedTempFile::new_in(&locked).is_ok();
        let opened = KernelCache::open(&locked);
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        if writable {
            eprintln!("note: running as a user who writes anywhere; the refusal is not observable here");
            return;
        }
        let why = opened.unwrap_err();
        assert!(why.contains("cannot create") || why.contains("cannot write"), "{why}");
    }

    #[test]
    fn the_folder_follows_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.into())
        };
        let dir = |pairs| dir_from(env(pairs)).map(|p| p.display().to_string());
        assert_eq!(dir(&[("HOME", "/home/a")]).as_deref(), Some("/home/a/.cache/grail"));
        assert_eq!(dir(&[("HOME", "/home/a"), ("XDG_CACHE_HOME", "/c")]).as_deref(), Some("/c/grail"));
        assert_eq!(dir(&[("HOME", "/home/a"), ("XDG_CACHE_HOME", "rel")]).as_deref(), Some("/home/a/.cache/grail"));
        assert_eq!(dir(&[("XDG_CACHE_HOME", "/c"), ("GRAIL_CACHE_DIR", "/g")]).as_deref(), Some("/g"));
        assert_eq!(dir(&[]), None);
    }

    #[test]
    fn a_path_that_is_a_file_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        let why = KernelCache::open(&file).unwrap_err();
        assert!(why.contains("cannot create"), "{why}");
    }
}
