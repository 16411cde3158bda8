//! Typed launchers from the kernels' own signatures. build.rs reads every `extern "C" __global__`
//! function of kernels/*.cu and writes, per kernel, a Rust type whose `launch` takes exactly the
//! kernel's parameters, in order, with their element types: a launch whose arguments disagree with
//! its kernel in number, kind (buffer or value) or element type does not compile. Standard library
//! only: build.rs and the crate's tests both include this file.

/// One kernel: its name and parameters, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<Param>,
}

/// One kernel parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// The Rust argument name (the CUDA name in lower case).
    pub name: String,
    pub kind: Kind,
    /// The parameter as the kernel declares it, for the launcher's documentation.
    pub declaration: String,
}

/// How a parameter is passed, with its Rust element or value type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// By value (`u32 n`).
    Value(&'static str),
    /// A device buffer the kernel only reads (`const u32* queue`).
    Reads(&'static str),
    /// A device buffer the kernel may write (`u32* size`).
    Writes(&'static str),
}

/// CUDA types a parameter may have: (CUDA name, Rust type, whether it may be passed by value).
/// `double` is a weight or a distance (`grail sssp`, `grail apsp`).
/// `Node` is labeling.cu's four-u32 tree node, held on the Rust side in a u32 buffer of 4 per node;
/// `Lanes` its table of the side-by-side dimensions' arrays, passed by value (`gpu::lane::LaneTable`).
const TYPES: [(&str, &str, bool); 5] = [
    ("u32", "u32", true),
    ("u64", "u64", true),
    ("double", "f64", true),
    ("Node", "u32", false),
    ("Lanes", "crate::gpu::lane::LaneTable", true),
];

/// Names a launcher's own arguments take, and Rust keywords a parameter might be called.
const TAKEN: [&str; 12] =
    ["self", "stream", "config", "args", "type", "ref", "mut", "fn", "in", "move", "loop", "match"];

/// Every kernel of one source file, in order; an error names the file and what cannot be read.
pub fn parse(file: &str, source: &str) -> Result<Vec<Kernel>, String> {
    let code = strip_comments(source);
    let mut kernels: Vec<Kernel> = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("__global__") {
        if !rest[..at].trim_end().ends_with("extern \"C\"") {
            return Err(format!(
                "{file}: a __global__ function is not extern \"C\" (its name would be mangled): {}",
                rest[at..].lines().next().unwrap_or_default()
            ));
        }
        let (kernel, tail) = parse_kernel(file, &rest[at + "__global__".len()..])?;
        if kernels.iter().any(|k| k.name == kernel.name) {
            return Err(format!("{file}: two kernels are called {}", kernel.name));
        }
        kernels.push(kernel);
        rest = tail;
    }
    Ok(kernels)
}

/// `void name(params)` at the start of `text`, and the text after the closing parenthesis.
fn parse_kernel<'t>(file: &str, text: &'t str) -> Result<(Kernel, &'t str), String> {
    let head = text.split('(').next().unwrap_or_default();
    let words: Vec<&str> = head.split_whitespace().collect();
    let [ret, name] = words[..] else {
        return Err(format!("{file}: expected `void name(` after __global__, found `{}`", head.trim()));
    };
    if ret != "void" || !is_identifier(name) {
        return Err(format!("{file}: expected `void name(` after __global__, found `{}`", head.trim()));
    }
    let open = head.len() + 1;
    let close = text[open..].find(')').ok_or_else(|| format!("{file}: {name}'s parameter list is not closed"))?;
    let list = text[open..open + close].trim();
    let mut params: Vec<Param> = Vec::new();
    if !list.is_empty() && list != "void" {
        for declaration in list.split(',') {
            let param = parse_param(declaration).map_err(|e| format!("{file}: kernel {name}: {e}"))?;
            if params.iter().any(|p| p.name == param.name) {
                return Err(format!("{file}: kernel {name}: two parameters are called {} in Rust", param.name));
            }
            params.push(param);
        }
    }
    Ok((Kernel { name: name.into(), params }, &text[open + close + 1..]))
}

/// One declaration such as `const u32* queue`, `u32 *P` or `u32 n`.
fn parse_param(declaration: &str) -> Result<Param, String> {
    let declaration = declaration.split_whitespace().collect::<Vec<_>>().join(" ");
    let spaced = declaration.replace('*', " * ");
    let tokens: Vec<&str> =
        spaced.split_whitespace().filter(|t| !matches!(*t, "__restrict__" | "__restrict")).collect();
    let Some((&cuda_name, before)) = tokens.split_last() else {
        return Err("an empty parameter".into());
    };
    if !is_identifier(cuda_name) {
        return Err(format!("cannot read the parameter `{declaration}`"));
    }
    let stars = before.iter().filter(|t| **t == "*").count();
    let star = before.iter().position(|t| *t == "*").unwrap_or(before.len());
    let reads_only = before[..star].contains(&"const");
    let type_words: Vec<&str> = before[..star].iter().copied().filter(|t| *t != "const").collect();
    let known = TYPES.iter().find(|(cuda, _, _)| type_words == [*cuda]);
    let kind = match (known, stars) {
        (Some(&(_, rust, _)), 1) if reads_only => Kind::Reads(rust),
        (Some(&(_, rust, _)), 1) => Kind::Writes(rust),
        (Some(&(_, rust, true)), 0) => Kind::Value(rust),
        _ => {
            let known: Vec<String> = TYPES
                .iter()
                .map(|(cuda, _, by_value)| if *by_value { cuda.to_string() } else { format!("{cuda}*") })
                .collect();
            return Err(format!(
                "the parameter `{declaration}` has a type the launchers do not know (they know {})",
                known.join(", ")
            ));
        }
    };
    let mut name = cuda_name.to_lowercase();
    if TAKEN.contains(&name.as_str()) {
        name.push('_');
    }
    Ok(Param { name, kind, declaration })
}

fn is_identifier(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `source` with its `//` and `/* */` comments blanked (the kernels hold no string literals but
/// `extern "C"`, which has no comment marker in it).
fn strip_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    loop {
        let line = rest.find("//");
        let block = rest.find("/*");
        let (at, end) = match (line, block) {
            (Some(l), b) if b.is_none_or(|b| l < b) => (l, rest[l..].find('\n').map_or(rest.len(), |e| l + e)),
            (_, Some(b)) => (b, rest[b..].find("*/").map_or(rest.len(), |e| b + e + 2)),
            (None, None) => break,
            (Some(_), None) => unreachable!("covered by the first arm"),
        };
        out += &rest[..at];
        out.push(' ');
        rest = &rest[end..];
    }
    out + rest
}

/// `init_dimension` → `InitDimension`.
fn type_name(kernel: &str) -> String {
    kernel
        .split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

/// The Rust module of one kernel file: a launcher type per kernel.
pub fn render_module(module: &str, kernels: &[Kernel]) -> String {
    // Only the buffer traits some launcher takes (a module of kernels that all write their
    // buffers has no `Buffer`).
    let takes = |kind: fn(&Kind) -> bool| kernels.iter().any(|k| k.params.iter().any(|p| kind(&p.kind)));
    let traits: Vec<&str> =
        [("Buffer", takes(|k| matches!(k, Kind::Reads(_)))), ("BufferMut", takes(|k| matches!(k, Kind::Writes(_))))]
            .into_iter()
            .filter_map(|(name, used)| used.then_some(name))
            .collect();
    let uses = match traits.as_slice() {
        [] => String::new(),
        [one] => format!("use super::{one};\n"),
        many => format!("use super::{{{}}};\n", many.join(", ")),
    };
    let mut body = format!(
        "{uses}\
         use anyhow::{{Context, Result}};\n\
         use cudarc::driver::{{CudaFunction, CudaStream, LaunchConfig, PushKernelArg}};\n\n\
         /// The module the kernels are loaded under.\n\
         pub const MODULE: &str = \"{module}\";\n"
    );
    for kernel in kernels {
        body += &render_kernel(kernel);
    }
    let indented: String =
        body.lines().map(|line| if line.is_empty() { "\n".to_string() } else { format!("    {line}\n") }).collect();
    format!("/// Launchers for the kernels of `kernels/{module}.cu`.\npub mod {module} {{\n{indented}}}\n")
}

fn render_kernel(kernel: &Kernel) -> String {
    let ty = type_name(&kernel.name);
    let declarations: Vec<&str> = kernel.params.iter().map(|p| p.declaration.as_str()).collect();
    let mut arguments = String::new();
    let mut pushes = String::new();
    for p in &kernel.params {
        let name = &p.name;
        match p.kind {
            Kind::Value(rust) => {
                arguments += &format!(",\n        {name}: {rust}");
                pushes += &format!("        args.arg(&{name});\n");
            }
            Kind::Reads(rust) => {
                arguments += &format!(",\n        {name}: &impl Buffer<{rust}>");
                pushes += &format!("        {name}.push(&mut args);\n");
            }
            Kind::Writes(rust) => {
                arguments += &format!(",\n        {name}: &mut impl BufferMut<{rust}>");
                pushes += &format!("        {name}.push_mut(&mut args);\n");
            }
        }
    }
    // A kernel named `..._cooperative` synchronises its whole grid, so it is launched
    // cooperatively (every block resident at once, or the launch fails) and says how many blocks a
    // multiprocessor holds, for sizing its grid.
    let cooperative = kernel.name.ends_with("_cooperative");
    let launch_call = if cooperative { "args.launch_cooperative(config)" } else { "args.launch(config)" };
    let resident = if cooperative {
        "\n\
         \x20   /// Blocks of `block` threads (no dynamic shared memory) one multiprocessor holds at once.\n\
         \x20   pub fn resident_blocks(&self, block: u32) -> Result<u32> {\n\
         \x20       Ok(self.0.occupancy_max_active_blocks_per_multiprocessor(block, 0, None)?)\n\
         \x20   }\n"
    } else {
        ""
    };
    format!(
        "\n/// `{name}({signature})`.\n\
         pub struct {ty}(CudaFunction);\n\n\
         impl {ty} {{\n\
         \x20   /// The kernel's name in its module.\n\
         \x20   pub const NAME: &str = \"{name}\";\n\n\
         \x20   /// Looks the kernel up in the loaded module.\n\
         \x20   pub fn load(gpu: &crate::gpu::Gpu) -> Result<Self> {{\n\
         \x20       gpu.function(MODULE, Self::NAME).map(Self)\n\
         \x20   }}\n\n\
         \x20   /// Queues the kernel on `stream`; the arguments are its parameters, in order.\n\
         \x20   ///\n\
         \x20   /// # Safety\n\
         \x20   ///\n\
         \x20   /// See [the module](super): `config` and the values must keep every index the kernel\n\
         \x20   /// computes inside the buffers given, and no other stream may write them meanwhile.\n\
         \x20   #[allow(clippy::too_many_arguments)]\n\
         \x20   pub unsafe fn launch(\n\
         \x20       &self,\n\
         \x20       stream: &CudaStream,\n\
         \x20       config: LaunchConfig{arguments},\n\
         \x20   ) -> Result<()> {{\n\
         \x20       let mut args = stream.launch_builder(&self.0);\n\
         {pushes}\
         \x20       // SAFETY: the arguments are the kernel's parameters, in its order and with its types\n\
         \x20       // (this launcher is generated from its signature); the caller keeps the rest of the contract.\n\
         \x20       let launched = unsafe {{ {launch_call} }};\n\
         \x20       launched.with_context(|| format!(\"cannot launch the {{}} kernel\", Self::NAME))?;\n\
         \x20       Ok(())\n\
         \x20   }}\n\
         {resident}\
         }}\n",
        name = kernel.name,
        signature = declarations.join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).into()
    }

    /// The arguments of the (first) generated `launch` after `self` and `stream`, one per line.
    fn launch_arguments(module: &str) -> Vec<&str> {
        let lines: Vec<&str> = module.lines().map(str::trim).collect();
        let start = lines.iter().position(|l| *l == "stream: &CudaStream,").expect("a launch") + 1;
        let end = lines[start..].iter().position(|l| l.starts_with(") -> Result<()>")).expect("its end") + start;
        lines[start..end].to_vec()
    }

    fn kinds(kernel: &Kernel) -> Vec<Kind> {
        kernel.params.iter().map(|p| p.kind).collect()
    }

    #[test]
    fn signatures_are_read_with_their_kinds_and_element_types() {
        let source = "// extern \"C\" __global__ void commented_out(u32 x) {}\n\
                      __device__ void helper(u32* x) {}\n\
                      extern \"C\" __global__ void first(const u64* offsets, u32 *out,\n   Node* T, u32 n) {\n}\n\
                      /* extern \"C\" __global__ void also_commented_out() */\n\
                      extern \"C\" __global__ void second(const Node* __restrict__ tree, u64 total) {}\n\
                      extern \"C\" __global__ void third() {}\n";
        let kernels = parse("k.cu", source).unwrap();
        let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["first", "second", "third"]);
        assert_eq!(
            kinds(&kernels[0]),
            [Kind::Reads("u64"), Kind::Writes("u32"), Kind::Writes("u32"), Kind::Value("u32")]
        );
        assert_eq!(kernels[0].params[2].name, "t");
        assert_eq!(kinds(&kernels[1]), [Kind::Reads("u32"), Kind::Value("u64")]);
        assert!(kernels[2].params.is_empty());
    }

    #[test]
    fn what_the_launchers_cannot_pass_is_refused_by_name() {
        for (source, expected) in [
            ("__global__ void mangled(u32 n) {}", "not extern \"C\""),
            ("extern \"C\" __global__ void f(float* x) {}", "kernel f: the parameter `float* x` has a type"),
            ("extern \"C\" __global__ void f(u32** x) {}", "the parameter `u32** x`"),
            ("extern \"C\" __global__ void f(Node n) {}", "the parameter `Node n`"),
            ("extern \"C\" __global__ void f(u32 T, u32 t) {}", "two parameters are called t"),
            ("extern \"C\" __global__ void f(u32 n) {}\nextern \"C\" __global__ void f(u32 m) {}", "two kernels"),
            ("extern \"C\" __global__ void f(u32 n", "not closed"),
        ] {
            let error = parse("k.cu", source).unwrap_err();
            assert!(error.contains(expected), "{source}: {error}");
        }
    }

    #[test]
    fn a_launcher_takes_exactly_its_kernels_parameters() {
        let kernels =
            parse("k.cu", "extern \"C\" __global__ void init_dimension(const u32* key, u32* size, u32 n) {}").unwrap();
        let module = render_module("k", &kernels);
        assert!(module.contains("pub struct InitDimension(CudaFunction);"), "{module}");
        assert!(module.contains("pub const NAME: &str = \"init_dimension\";"), "{module}");
        let arguments =
            ["config: LaunchConfig,", "key: &impl Buffer<u32>,", "size: &mut impl BufferMut<u32>,", "n: u32,"];
        assert_eq!(launch_arguments(&module), arguments, "{module}");
        let pushes = ["key.push(&mut args);", "size.push_mut(&mut args);", "args.arg(&n);"];
        let lines: Vec<&str> = module.lines().map(str::trim).collect();
        assert!(lines.windows(3).any(|w| w == pushes), "{module}");
    }

    /// Every kernel of the project's sources is read, and a signature changed in a copy of the
    /// source changes its launcher: a launch site written for the old signature then no longer
    /// compiles (the arity check is the compiler's, against launchers generated this way).
    #[test]
    fn the_project_kernels_are_read_and_a_changed_signature_changes_the_launcher() {
        for file in ["labeling.cu", "search.cu"] {
            let source = std::fs::read_to_string(root().join("kernels").join(file)).unwrap();
            let kernels = parse(file, &source).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(kernels.len(), source.matches("extern \"C\" __global__").count(), "{file}");
            assert!(kernels.iter().all(|k| !k.params.is_empty()), "{file}");
        }
        let source = std::fs::read_to_string(root().join("kernels/labeling.cu")).unwrap();
        let select = |source: &str| {
            parse("labeling.cu", source).unwrap().into_iter().find(|k| k.name == "select_block").unwrap()
        };
        let original = select(&source);
        assert_eq!(original.params.len(), 6);
        let tampered = source.replacen("Lanes L,\n                                        u32 rho) {", "Lanes L) {", 1);
        assert_ne!(tampered, source, "the tampering must hit select_block's signature");
        let changed = select(&tampered);
        assert_eq!(changed.params.len(), 5, "one parameter fewer is seen");
        let (before, after) = (
            render_module("labeling", std::slice::from_ref(&original)),
            render_module("labeling", std::slice::from_ref(&changed)),
        );
        let (before, after) = (launch_arguments(&before), launch_arguments(&after));
        assert_eq!(before.len(), 1 + 6, "config and the six parameters: {before:?}");
        assert_eq!(before[before.len() - 2..], ["l: crate::gpu::lane::LaneTable,", "rho: u32,"]);
        assert_eq!(after.len(), 1 + 5, "{after:?}");
        assert_eq!(after.last(), Some(&"l: crate::gpu::lane::LaneTable,"));
    }
}
