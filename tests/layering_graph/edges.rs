//! The dependencies between files: file A depends on file B when A's (non-test) code names an item
//! that B defines, through a `use` or a path written in code (`crate::gpu::shared()`,
//! `io::Format`, paths inside macro calls such as `format!("{}", crate::x::y())`).
//!
//! Not dependencies: `mod child;` and a parent re-exporting its descendants (`pub use child::Name;`,
//! `pub use child::*`): those are the module's facade. (Re-exporting an item from elsewhere, say
//! `pub use crate::telemetry::Phase;`, does count.) Naming a module alone (`use crate::query;`)
//! is no dependency either; what counts is the item later reached through it (`query::Engine`).
//! Names used alone in code (`Labels`, `build_labels(..)`) are looked up only when a re-export or a
//! glob import could bind them (a plain `use` made its edge already): so a facade re-export that
//! the parent also uses in its own code does count as a dependency.

use super::modules::{Binding, CrateModel, FileId, ModId, impl_item_is_test_only, is_test_only, item_attrs};
use super::resolve::Target;
use proc_macro2::{Spacing, TokenStream, TokenTree};
use std::collections::BTreeMap;
use syn::visit::Visit;
use syn::{Item, ItemUse};

/// Why one file depends on another: a line of the depending file and what it names there.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Evidence {
    pub line: usize,
    /// `use crate::index::pipeline::Backend` or a path as written in code.
    pub text: String,
}

impl Evidence {
    fn is_use(&self) -> bool {
        self.text.starts_with("use ")
    }
}

/// (depending file, file it depends on) -> the lines that make the dependency, `use`s first.
pub type Edges = BTreeMap<(FileId, FileId), Vec<Evidence>>;

pub fn collect_edges(model: &CrateModel) -> Edges {
    let mut edges = Edges::new();
    for (&file, &module) in &model.file_modules {
        let mut visitor = EdgeVisitor { model, file, module, edges: &mut edges };
        for item in &model.files[file].ast.items {
            visitor.visit_item(item);
        }
    }
    for evidence in edges.values_mut() {
        evidence.sort_by_key(|e| (!e.is_use(), e.line));
    }
    edges
}

struct EdgeVisitor<'m> {
    model: &'m CrateModel,
    file: FileId,
    /// The module the visited code is in (changes inside inline `mod x { }` blocks).
    module: ModId,
    edges: &'m mut Edges,
}

impl EdgeVisitor<'_> {
    fn add(&mut self, targets: &[Target], line: usize, text: impl Fn() -> String) {
        for &target in targets {
            let Some(to) = self.model.item_file(target) else { continue };
            if to == self.file {
                continue;
            }
            let evidence = self.edges.entry((self.file, to)).or_default();
            let text = text();
            if !evidence.iter().any(|e| e.text == text) {
                evidence.push(Evidence { line, text });
            }
        }
    }

    fn on_use(&mut self, item: &ItemUse) {
        for leaf in super::modules::use_leaves(item) {
            if leaf.absolute || leaf.binding == Binding::Glob {
                // A glob itself names nothing: the names used through it are counted where used.
                continue;
            }
            let targets = self.model.resolve(self.module, &leaf.path);
            let facade = leaf.reexport
                && targets.iter().all(|t| match t {
                    Target::Item { module } => self.model.is_within(*module, self.module),
                    Target::Module(_) => true,
                });
            if !facade {
                self.add(&targets, leaf.line, || format!("use {}", leaf.path.join("::")));
            }
        }
    }

    fn on_path(&mut self, segments: Vec<String>, line: usize) {
        if let [name] = segments.as_slice()
            && !self.model.needs_lookup_alone(self.module, name)
        {
            return;
        }
        let targets = self.model.resolve(self.module, &segments);
        self.add(&targets, line, || segments.join("::"));
    }

    /// Macro arguments are tokens to syn: pick out every `a::b::c` in them (not `.a::b`, which is
    /// a method call with a turbofish, nor the tail of a longer `::` path).
    fn scan_tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let is_punct = |i: usize, c: char| matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let path_sep = |i: usize| {
            matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
                && is_punct(i + 1, ':')
        };
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(group) => {
                    self.scan_tokens(group.stream());
                    i += 1;
                }
                TokenTree::Ident(first) => {
                    let after_dot_or_sep = i >= 1 && (is_punct(i - 1, '.') || (i >= 2 && path_sep(i - 2)));
                    let mut segments = vec![first.to_string()];
                    let mut next = i + 1;
                    while path_sep(next) {
                        let Some(TokenTree::Ident(ident)) = trees.get(next + 2) else { break };
                        segments.push(ident.to_string());
                        next += 3;
                    }
                    if segments.len() > 1 && !after_dot_or_sep {
                        self.on_path(segments, first.span().start().line);
                    }
                    i = next;
                }
                _ => i += 1,
            }
        }
    }
}

impl<'ast> Visit<'ast> for EdgeVisitor<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        if item_attrs(item).is_some_and(is_test_only) {
            return;
        }
        match item {
            Item::Use(u) => self.on_use(u),
            Item::Mod(m) => {
                // `mod child;` is visited as its own file; an inline module is a new scope. (One
                // inside a function body is not in the module tree: its paths resolve as if
                // written in the enclosing module.)
                let Some((_, inner)) = &m.content else { return };
                let outer = self.module;
                if let Some(&child) = self.model.modules[outer].children.get(&m.ident.to_string()) {
                    self.module = child;
                }
                for item in inner {
                    self.visit_item(item);
                }
                self.module = outer;
            }
            other => syn::visit::visit_item(self, other),
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        if !impl_item_is_test_only(item) {
            syn::visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast syn::TraitItem) {
        let attrs = match item {
            syn::TraitItem::Const(i) => &i.attrs,
            syn::TraitItem::Fn(i) => &i.attrs,
            syn::TraitItem::Type(i) => &i.attrs,
            syn::TraitItem::Macro(i) => &i.attrs,
            _ => return syn::visit::visit_trait_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_trait_item(self, item);
        }
    }

    /// `#[derive(..)]`, `#[serde(..)]`, docs: never a dependency between this crate's files.
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none()
            && let Some(first) = path.segments.first()
        {
            let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.on_path(segments, first.ident.span().start().line);
        }
        // Generic arguments hold paths of their own (`Vec<crate::x::Y>`).
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        syn::visit::visit_macro(self, mac);
        self.scan_tokens(mac.tokens.clone());
    }
}
