//! The crate's module tree as rustc builds it from `mod` declarations: which file each module lives
//! in, the names each module defines, and the names its `use` declarations bring into scope.
//!
//! Items compiled only for tests (`#[cfg(test)]`, `#[test]`) are left out everywhere: tests may
//! import from anywhere without making the library's layering worse.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use syn::visit::Visit;
use syn::{Attribute, Item, ItemUse, Meta, Token, UseTree};

pub type ModId = usize;
pub type FileId = usize;

/// The library's name: `main.rs` (a second crate) reaches the library as `grail::...`.
pub const LIB_CRATE: &str = "grail";

pub struct SourceFile {
    /// As given, e.g. `src/tui/app.rs`.
    pub path: String,
    pub ast: syn::File,
}

pub struct Module {
    /// `crate::tui::app`, for messages.
    pub path: String,
    pub parent: Option<ModId>,
    /// The crate root this module belongs to (`lib.rs` or `main.rs`): what `crate::` means here.
    pub root: ModId,
    pub file: FileId,
    /// Child modules, inline (`mod x { }`) or in their own file (`mod x;`).
    pub children: BTreeMap<String, ModId>,
    /// Everything else the module defines: types, functions, constants, statics, macros.
    pub items: BTreeSet<String>,
    /// `use` declarations, the module's own and (approximately: see `BlockUses`) those in its
    /// function bodies.
    pub imports: Vec<UseLeaf>,
}

/// What one leaf of a `use` tree binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    Name(String),
    /// `use path::*`: `path` is the glob's prefix.
    Glob,
    /// `use path::Trait as _`.
    Anonymous,
}

/// One leaf of an expanded `use` tree: `use a::{b, c::d as e}` has the leaves `a::b` (bound to `b`)
/// and `a::c::d` (bound to `e`).
#[derive(Clone, Debug)]
pub struct UseLeaf {
    pub binding: Binding,
    pub path: Vec<String>,
    /// Starts with `::` (always another crate).
    pub absolute: bool,
    /// `pub use` (any visibility): a re-export.
    pub reexport: bool,
    pub line: usize,
}

pub struct CrateModel {
    pub files: Vec<SourceFile>,
    pub modules: Vec<Module>,
    pub lib_root: Option<ModId>,
    /// Every file some `mod` declaration reached, with the module it holds.
    pub file_modules: BTreeMap<FileId, ModId>,
    /// Files declared only under `#[cfg(test)]` (or starting with `#![cfg(test)]`).
    pub test_only_files: BTreeSet<FileId>,
}

impl CrateModel {
    /// Parses `sources` (path -> text, paths like `src/lib.rs`) and builds the module trees of
    /// `src/lib.rs` and `src/main.rs` (either may be missing, not both).
    pub fn build(sources: &BTreeMap<String, String>) -> Result<CrateModel, String> {
        let mut files = Vec::with_capacity(sources.len());
        for (path, text) in sources {
            let ast = syn::parse_file(text).map_err(|e| format!("{path}: cannot parse: {e}"))?;
            files.push(SourceFile { path: path.clone(), ast });
        }
        let by_path = files.iter().enumerate().map(|(id, f)| (f.path.as_str(), id)).collect();
        let mut builder = Builder { files: &files, by_path, modules: Vec::new(), test_only: BTreeSet::new() };
        let lib_root = builder.add_root("src/lib.rs")?;
        let bin_root = builder.add_root("src/main.rs")?;
        if lib_root.is_none() && bin_root.is_none() {
            return Err("neither src/lib.rs nor src/main.rs is among the sources".to_string());
        }
        let Builder { modules, test_only, .. } = builder;
        let mut file_modules = BTreeMap::new();
        for (id, module) in modules.iter().enumerate() {
            file_modules.entry(module.file).or_insert(id);
        }
        Ok(CrateModel { files, modules, lib_root, file_modules, test_only_files: test_only })
    }

    /// Whether `module` is `ancestor` or lies inside it.
    pub fn is_within(&self, module: ModId, ancestor: ModId) -> bool {
        let mut current = Some(module);
        while let Some(m) = current {
            if m == ancestor {
                return true;
            }
            current = self.modules[m].parent;
        }
        false
    }
}

struct Builder<'a> {
    files: &'a [SourceFile],
    by_path: HashMap<&'a str, FileId>,
    modules: Vec<Module>,
    test_only: BTreeSet<FileId>,
}

impl<'a> Builder<'a> {
    fn add_root(&mut self, path: &str) -> Result<Option<ModId>, String> {
        let Some(&file) = self.by_path.get(path) else { return Ok(None) };
        let root = self.new_module("crate".to_string(), None, file);
        self.fill(root, &self.files[file].ast.items, "src/")?;
        Ok(Some(root))
    }

    fn new_module(&mut self, path: String, parent: Option<ModId>, file: FileId) -> ModId {
        let id = self.modules.len();
        let root = parent.map_or(id, |p| self.modules[p].root);
        self.modules.push(Module {
            path,
            parent,
            root,
            file,
            children: BTreeMap::new(),
            items: BTreeSet::new(),
            imports: Vec::new(),
        });
        id
    }

    /// Registers `items` as the contents of `module`; `dir` is where its `mod x;` files live.
    fn fill(&mut self, module: ModId, items: &'a [Item], dir: &str) -> Result<(), String> {
        for item in items {
            if item_attrs(item).is_some_and(is_test_only) {
                // A test-only module brought in by `#[path]` (a build script's generator, tested
                // against the real sources) lives outside src/: nothing to follow.
                if let Item::Mod(m) = item
                    && m.content.is_none()
                    && !m.attrs.iter().any(|a| a.path().is_ident("path"))
                {
                    let file = self.module_file(dir, &m.ident.to_string())?;
                    self.test_only.insert(file);
                    // A test-only `name/mod.rs` brings its own files in: all of `name/` is test-only.
                    let inside = format!("{dir}{}/", m.ident);
                    if self.files[file].path.starts_with(&inside) {
                        let below = self.by_path.iter().filter(|(p, _)| p.starts_with(&inside)).map(|(_, &f)| f);
                        self.test_only.extend(below.collect::<Vec<_>>());
                    }
                }
                continue;
            }
            match item {
                Item::Mod(m) => self.add_child(module, m, dir)?,
                Item::Use(u) => self.modules[module].imports.extend(use_leaves(u)),
                Item::Macro(m) => {
                    if let Some(ident) = &m.ident {
                        // `#[macro_export]` puts a `macro_rules!` at the crate root.
                        let owner = if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) {
                            self.modules[module].root
                        } else {
                            module
                        };
                        self.modules[owner].items.insert(ident.to_string());
                    }
                }
                other => {
                    if let Some(name) = defined_name(other) {
                        self.modules[module].items.insert(name);
                    }
                    let mut uses = BlockUses(Vec::new());
                    uses.visit_item(other);
                    self.modules[module].imports.extend(uses.0);
                }
            }
        }
        Ok(())
    }

    fn add_child(&mut self, parent: ModId, m: &'a syn::ItemMod, dir: &str) -> Result<(), String> {
        let name = m.ident.to_string();
        let path = format!("{}::{name}", self.modules[parent].path);
        let child_dir = format!("{dir}{name}/");
        if let Some((_, inner)) = &m.content {
            let child = self.new_module(path, Some(parent), self.modules[parent].file);
            self.modules[parent].children.insert(name, child);
            return self.fill(child, inner, &child_dir);
        }
        if m.attrs.iter().any(|a| a.path().is_ident("path")) {
            return Err(format!("{path}: #[path] on a module is not supported by this checker"));
        }
        let file = self.module_file(dir, &name)?;
        if is_test_only(&self.files[file].ast.attrs) {
            self.test_only.insert(file);
            return Ok(());
        }
        let child = self.new_module(path, Some(parent), file);
        self.modules[parent].children.insert(name, child);
        self.fill(child, &self.files[file].ast.items, &child_dir)
    }

    /// `dir/name.rs` or `dir/name/mod.rs`, as rustc looks for them.
    fn module_file(&self, dir: &str, name: &str) -> Result<FileId, String> {
        let flat = format!("{dir}{name}.rs");
        let nested = format!("{dir}{name}/mod.rs");
        self.by_path
            .get(flat.as_str())
            .or_else(|| self.by_path.get(nested.as_str()))
            .copied()
            .ok_or_else(|| format!("`mod {name};` declared for {dir} but neither {flat} nor {nested} exists"))
    }
}

/// The name an item defines in its module's namespaces, if any.
fn defined_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Fn(i) => &i.sig.ident,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

pub fn item_attrs(item: &Item) -> Option<&[Attribute]> {
    Some(match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => return None,
    })
}

/// `#[test]`, `#[cfg(test)]` or `#[cfg(all(test, ...))]`: compiled only into the test build.
/// (`#[cfg(any(test, ...))]` and `#[cfg(not(test))]` reach the library too, so they count.)
pub fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("test")
            || (attr.path().is_ident("cfg") && attr.parse_args::<Meta>().is_ok_and(|meta| cfg_requires_test(&meta)))
    })
}

fn cfg_requires_test(meta: &Meta) -> bool {
    match meta {
        Meta::Path(p) => p.is_ident("test"),
        Meta::List(list) if list.path.is_ident("all") => list
            .parse_args_with(syn::punctuated::Punctuated::<Meta, Token![,]>::parse_terminated)
            .is_ok_and(|all| all.iter().any(cfg_requires_test)),
        _ => false,
    }
}

/// Expands a `use` declaration into its leaves.
pub fn use_leaves(item: &ItemUse) -> Vec<UseLeaf> {
    let mut leaves = Vec::new();
    let reexport = !matches!(item.vis, syn::Visibility::Inherited);
    expand(&item.tree, &mut Vec::new(), (item.leading_colon.is_some(), reexport), &mut leaves);
    leaves
}

/// `flags`: (absolute, reexport), the same for every leaf.
fn expand(tree: &UseTree, prefix: &mut Vec<String>, flags: (bool, bool), out: &mut Vec<UseLeaf>) {
    let (absolute, reexport) = flags;
    let leaf = |binding, path, ident: &syn::Ident| UseLeaf {
        binding,
        path,
        absolute,
        reexport,
        line: ident.span().start().line,
    };
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            expand(&p.tree, prefix, flags, out);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let (binding, path) = if n.ident == "self" {
                (prefix.last().cloned().unwrap_or_default(), prefix.clone())
            } else {
                (n.ident.to_string(), [prefix.as_slice(), &[n.ident.to_string()]].concat())
            };
            out.push(leaf(Binding::Name(binding), path, &n.ident));
        }
        UseTree::Rename(r) => {
            let path =
                if r.ident == "self" { prefix.clone() } else { [prefix.as_slice(), &[r.ident.to_string()]].concat() };
            let binding = if r.rename == "_" { Binding::Anonymous } else { Binding::Name(r.rename.to_string()) };
            out.push(leaf(binding, path, &r.ident));
        }
        UseTree::Glob(g) => out.push(UseLeaf {
            binding: Binding::Glob,
            path: prefix.clone(),
            absolute,
            reexport,
            line: g.star_token.span.start().line,
        }),
        UseTree::Group(g) => {
            for tree in &g.items {
                expand(tree, prefix, flags, out);
            }
        }
    }
}

/// The `use` declarations inside one item's function bodies. Rust scopes them to their block; this
/// checker adds them to the enclosing module instead, which only matters if a block-level import
/// shadowed a module-level name of the same spelling (clippy and reviewers would object to that).
struct BlockUses(Vec<UseLeaf>);

impl<'ast> Visit<'ast> for BlockUses {
    fn visit_item(&mut self, item: &'ast Item) {
        if item_attrs(item).is_some_and(is_test_only) {
            return;
        }
        match item {
            Item::Use(u) => self.0.extend(use_leaves(u)),
            // A module inside a function body is its own scope; none exist in this crate.
            Item::Mod(_) => {}
            other => syn::visit::visit_item(self, other),
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        if !impl_item_is_test_only(item) {
            syn::visit::visit_impl_item(self, item);
        }
    }
}

pub fn impl_item_is_test_only(item: &syn::ImplItem) -> bool {
    match item {
        syn::ImplItem::Const(i) => is_test_only(&i.attrs),
        syn::ImplItem::Fn(i) => is_test_only(&i.attrs),
        syn::ImplItem::Type(i) => is_test_only(&i.attrs),
        syn::ImplItem::Macro(i) => is_test_only(&i.attrs),
        _ => false,
    }
}
