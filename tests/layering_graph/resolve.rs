//! Path resolution, close to rustc's for the paths this crate writes: `crate::`, `super::`,
//! `self::`, `grail::` (from `main.rs`), and paths that start with a name in scope (a child
//! module, an item, or an import: `use crate::query;` then `query::Engine`).
//!
//! Re-exports are followed to the file that defines the item, so `crate::index::Order` resolves to
//! `src/index/order.rs` through `pub use order::Order;` in `src/index/mod.rs`. Anything that does
//! not resolve (other crates, `std`, generic parameters, `Self`) yields nothing.

use super::modules::{Binding, CrateModel, FileId, LIB_CRATE, ModId, UseLeaf};

/// What a path names. A name can be a module and a function at once (`gpu::probe`), so a path
/// resolves to a set of targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    Module(ModId),
    /// An item (type, function, constant, ...) defined in `module`'s file.
    Item {
        module: ModId,
    },
}

impl CrateModel {
    /// What `path`, written inside module `ctx`, names.
    pub fn resolve(&self, ctx: ModId, path: &[String]) -> Vec<Target> {
        self.resolve_in(ctx, path, &mut Vec::new())
    }

    /// The file defining `target`, if it is an item.
    pub fn item_file(&self, target: Target) -> Option<FileId> {
        match target {
            Target::Item { module } => Some(self.modules[module].file),
            Target::Module(_) => None,
        }
    }

    /// `in_progress` holds the imports (module, index) being resolved: imports that refer to each
    /// other, or a glob through which its own prefix would be looked up, end there.
    fn resolve_in(&self, ctx: ModId, path: &[String], in_progress: &mut Vec<(ModId, usize)>) -> Vec<Target> {
        let Some((first, rest)) = path.split_first() else { return Vec::new() };
        let mut current = match first.as_str() {
            "crate" => vec![Target::Module(self.modules[ctx].root)],
            "self" => vec![Target::Module(ctx)],
            "super" => self.modules[ctx].parent.map(Target::Module).into_iter().collect(),
            // `Self::` names the impl's own type: always the same file.
            "Self" => return Vec::new(),
            name => {
                let found = self.lookup(ctx, name, in_progress);
                match self.lib_root {
                    Some(lib) if found.is_empty() && name == LIB_CRATE => vec![Target::Module(lib)],
                    _ => found,
                }
            }
        };
        for segment in rest {
            let modules: Vec<ModId> = current
                .iter()
                .filter_map(|t| match t {
                    Target::Module(m) => Some(*m),
                    Target::Item { .. } => None,
                })
                .collect();
            if modules.is_empty() {
                // An enum's variant or an associated item: defined where the item is.
                return current;
            }
            current = match segment.as_str() {
                "super" => modules.iter().filter_map(|&m| self.modules[m].parent.map(Target::Module)).collect(),
                "self" => modules.into_iter().map(Target::Module).collect(),
                name => modules.into_iter().flat_map(|m| self.lookup(m, name, in_progress)).collect(),
            };
        }
        current.sort();
        current.dedup();
        current
    }

    /// What `name` means inside `module`: a child module, an item defined there, an explicit
    /// import, or (only when none of those exist, as in Rust) a glob import.
    fn lookup(&self, module: ModId, name: &str, in_progress: &mut Vec<(ModId, usize)>) -> Vec<Target> {
        let m = &self.modules[module];
        let mut found = Vec::new();
        if let Some(&child) = m.children.get(name) {
            found.push(Target::Module(child));
        }
        if m.items.contains(name) {
            found.push(Target::Item { module });
        }
        let named = |i: &UseLeaf| i.binding == Binding::Name(name.to_string());
        found.extend(self.follow_imports(module, named, |i| i.path.clone(), in_progress));
        if found.is_empty() {
            let glob = |i: &UseLeaf| i.binding == Binding::Glob;
            let path = |i: &UseLeaf| [i.path.as_slice(), &[name.to_string()]].concat();
            found.extend(self.follow_imports(module, glob, path, in_progress));
        }
        found
    }

    /// Resolves `path_of(import)` for the imports of `module` that `select` picks, skipping those
    /// already being resolved: `pub use probe::probe;` must find the module `probe`, not itself.
    fn follow_imports(
        &self,
        module: ModId,
        select: impl Fn(&UseLeaf) -> bool,
        path_of: impl Fn(&UseLeaf) -> Vec<String>,
        in_progress: &mut Vec<(ModId, usize)>,
    ) -> Vec<Target> {
        let mut found = Vec::new();
        for (index, import) in self.modules[module].imports.iter().enumerate() {
            if import.absolute || !select(import) || in_progress.contains(&(module, index)) {
                continue;
            }
            in_progress.push((module, index));
            found.extend(self.resolve_in(module, &path_of(import), in_progress));
            in_progress.pop();
        }
        found
    }

    /// Whether `name`, used alone in `module`'s code, must be looked up to find its file: it is
    /// neither defined there nor a child module, nor bound by a plain `use` (which made its edge
    /// already), but a re-export or a glob may bind it.
    pub fn needs_lookup_alone(&self, module: ModId, name: &str) -> bool {
        let m = &self.modules[module];
        let binds = |i: &UseLeaf| !i.absolute && i.binding == Binding::Name(name.to_string());
        !m.items.contains(name)
            && !m.children.contains_key(name)
            && !m.imports.iter().any(|i| binds(i) && !i.reexport)
            && m.imports.iter().any(|i| (binds(i) && i.reexport) || (!i.absolute && i.binding == Binding::Glob))
    }
}
