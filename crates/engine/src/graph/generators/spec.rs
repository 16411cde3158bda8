//! `kind:key=value,...` strings naming a generated graph, as the CLI takes them
//! (`random:n=1000000,deg=50,seed=7`). `Display` writes the canonical form, which parses back to the
//! same spec, so a run can print exactly what it generated.

use super::{chain, deep_dag, diamond_ladder, many_roots, random_dag, random_digraph, scale_free, tree, wide_fan};
use crate::error::ErrorContext;
use crate::graph::Graph;
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// A generator and all its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum GeneratorSpec {
    /// `random`: a uniform random DAG ([`random_dag`]).
    Random {
        /// Vertices.
        n: usize,
        /// Average out-degree; at most `(n - 1) / 2`.
        deg: f64,
        /// Seed of the random draws.
        seed: u64,
    },
    /// `chain`: the path `0 -> 1 -> ... -> n - 1` ([`chain`]).
    Chain {
        /// Vertices, at least 1.
        n: usize,
    },
    /// `deep`: a DAG with exactly `depth` Kahn levels ([`deep_dag`]).
    Deep {
        /// Vertices.
        n: usize,
        /// Average out-degree.
        deg: f64,
        /// Layers, which is also the number of Kahn levels.
        depth: usize,
        /// Seed of the random draws.
        seed: u64,
    },
    /// `tree`: the complete `arity`-ary tree in heap layout ([`tree`]).
    Tree {
        /// Vertices.
        n: usize,
        /// Children per inner vertex.
        arity: usize,
    },
    /// `ladder`: `k` diamonds in a row, whose path counts double at every rung ([`diamond_ladder`]).
    Ladder {
        /// Diamonds, at least 1 (`3k + 1` vertices).
        k: usize,
    },
    /// `scalefree`: preferential attachment, a DAG ([`scale_free`]).
    ScaleFree {
        /// Vertices.
        n: usize,
        /// Children of every vertex from the `m`-th on.
        m: usize,
        /// Seed of the random draws.
        seed: u64,
    },
    /// `fan`: hubs and leaves in alternating layers, with random cross edges ([`wide_fan`]).
    Fan {
        /// Leaves per hub.
        width: usize,
        /// Fans in a row.
        layers: usize,
        /// Seed of the random draws and of the id shuffle.
        seed: u64,
    },
    /// `digraph`: a random directed graph with cycles ([`random_digraph`]).
    Digraph {
        /// Vertices.
        n: usize,
        /// Average out-degree (each ordered pair is an edge with probability `deg / (n - 1)`).
        deg: f64,
        /// Seed of the random draws.
        seed: u64,
    },
    /// `roots`: a shallow forest where most vertices are roots ([`many_roots`]).
    ManyRoots {
        /// Vertices.
        n: usize,
        /// About one vertex in `fan` gets a parent; the depth grows like `log_fan(n)`.
        fan: usize,
        /// Seed of the random draws and of the id shuffle.
        seed: u64,
    },
}

/// Each kind with its keys, in canonical order; `seed` is optional everywhere (default 0).
const KINDS: &[(&str, &[&str])] = &[
    ("random", &["n", "deg", "seed"]),
    ("chain", &["n"]),
    ("deep", &["n", "deg", "depth", "seed"]),
    ("tree", &["n", "arity"]),
    ("ladder", &["k"]),
    ("scalefree", &["n", "m", "seed"]),
    ("fan", &["width", "layers", "seed"]),
    ("digraph", &["n", "deg", "seed"]),
    ("roots", &["n", "fan", "seed"]),
];

impl GeneratorSpec {
    /// What the parser accepts, one kind per line, for error messages and `--help`.
    pub fn accepted() -> String {
        let lines: Vec<String> = KINDS
            .iter()
            .map(|(kind, keys)| {
                let keys: Vec<String> = keys.iter().map(|k| format!("{k}=..")).collect();
                format!("  {kind}:{}", keys.join(","))
            })
            .collect();
        format!("{}\n  (seed is optional, default 0)", lines.join("\n"))
    }

    /// Builds the graph.
    pub fn generate(&self) -> Result<Graph> {
        match *self {
            GeneratorSpec::Random { n, deg, seed } => random_dag(n, deg, seed),
            GeneratorSpec::Chain { n } => chain(n),
            GeneratorSpec::Deep { n, deg, depth, seed } => deep_dag(n, deg, depth, seed),
            GeneratorSpec::Tree { n, arity } => tree(n, arity),
            GeneratorSpec::Ladder { k } => diamond_ladder(k),
            GeneratorSpec::ScaleFree { n, m, seed } => scale_free(n, m, seed),
            GeneratorSpec::Fan { width, layers, seed } => wide_fan(width, layers, seed),
            GeneratorSpec::Digraph { n, deg, seed } => random_digraph(n, deg, seed),
            GeneratorSpec::ManyRoots { n, fan, seed } => many_roots(n, fan, seed),
        }
        .with_context(|| format!("generating {self}"))
    }

    /// Whether the generated graph is a DAG by construction (only `digraph` may have cycles).
    pub fn is_acyclic(&self) -> bool {
        !matches!(self, GeneratorSpec::Digraph { .. })
    }
}

impl fmt::Display for GeneratorSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeneratorSpec::Random { n, deg, seed } => write!(f, "random:n={n},deg={deg},seed={seed}"),
            GeneratorSpec::Chain { n } => write!(f, "chain:n={n}"),
            GeneratorSpec::Deep { n, deg, depth, seed } => write!(f, "deep:n={n},deg={deg},depth={depth},seed={seed}"),
            GeneratorSpec::Tree { n, arity } => write!(f, "tree:n={n},arity={arity}"),
            GeneratorSpec::Ladder { k } => write!(f, "ladder:k={k}"),
            GeneratorSpec::ScaleFree { n, m, seed } => write!(f, "scalefree:n={n},m={m},seed={seed}"),
            GeneratorSpec::Fan { width, layers, seed } => write!(f, "fan:width={width},layers={layers},seed={seed}"),
            GeneratorSpec::Digraph { n, deg, seed } => write!(f, "digraph:n={n},deg={deg},seed={seed}"),
            GeneratorSpec::ManyRoots { n, fan, seed } => write!(f, "roots:n={n},fan={fan},seed={seed}"),
        }
    }
}

impl FromStr for GeneratorSpec {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        let (kind, params) = text.trim().split_once(':').unwrap_or((text.trim(), ""));
        let kind = kind.trim().to_ascii_lowercase();
        let Some(&(kind, keys)) = KINDS.iter().find(|(k, _)| *k == kind) else {
            let accepted = GeneratorSpec::accepted();
            return Err(Error::InvalidInput(format!("unknown generator `{kind}`; accepted:\n{accepted}")));
        };
        let mut values = Params::parse(kind, keys, params)?;
        let spec = match kind {
            "random" => GeneratorSpec::Random { n: values.int("n")?, deg: values.float("deg")?, seed: values.seed()? },
            "chain" => GeneratorSpec::Chain { n: values.int("n")? },
            "deep" => GeneratorSpec::Deep {
                n: values.int("n")?,
                deg: values.float("deg")?,
                depth: values.int("depth")?,
                seed: values.seed()?,
            },
            "tree" => GeneratorSpec::Tree { n: values.int("n")?, arity: values.int("arity")? },
            "ladder" => GeneratorSpec::Ladder { k: values.int("k")? },
            "scalefree" => GeneratorSpec::ScaleFree { n: values.int("n")?, m: values.int("m")?, seed: values.seed()? },
            "fan" => {
                GeneratorSpec::Fan { width: values.int("width")?, layers: values.int("layers")?, seed: values.seed()? }
            }
            "digraph" => {
                GeneratorSpec::Digraph { n: values.int("n")?, deg: values.float("deg")?, seed: values.seed()? }
            }
            "roots" => GeneratorSpec::ManyRoots { n: values.int("n")?, fan: values.int("fan")?, seed: values.seed()? },
            _ => unreachable!("every entry of KINDS has a case"),
        };
        Ok(spec)
    }
}

/// The `key=value` pairs of one spec, checked against the kind's keys.
struct Params {
    kind: &'static str,
    keys: &'static [&'static str],
    values: BTreeMap<String, String>,
}

impl Params {
    fn parse(kind: &'static str, keys: &'static [&'static str], params: &str) -> Result<Params> {
        let mut values = BTreeMap::new();
        for pair in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').ok_or_else(|| {
                Error::InvalidInput(format!("`{pair}` in `{kind}` is not key=value; keys: {}", keys.join(", ")))
            })?;
            let key = key.trim().to_ascii_lowercase();
            if !keys.contains(&key.as_str()) {
                let keys = keys.join(", ");
                return Err(Error::InvalidInput(format!("unknown key `{key}` for `{kind}`; accepted keys: {keys}")));
            }
            if values.insert(key.clone(), value.trim().to_string()).is_some() {
                return Err(Error::InvalidInput(format!("key `{key}` given twice in `{kind}`")));
            }
        }
        Ok(Params { kind, keys, values })
    }

    fn required(&mut self, key: &str) -> Result<String> {
        self.values.remove(key).ok_or_else(|| {
            let (kind, keys, example) = (self.kind, self.keys.join(", "), self.example());
            Error::InvalidInput(format!("`{kind}` needs `{key}=..`; keys: {keys} (e.g. {example})"))
        })
    }

    fn example(&self) -> String {
        let keys: Vec<String> = self.keys.iter().map(|k| format!("{k}=..")).collect();
        format!("{}:{}", self.kind, keys.join(","))
    }

    /// A whole number; `_` separators allowed (`n=1_000_000`).
    fn int<T: FromStr>(&mut self, key: &str) -> Result<T> {
        let text = self.required(key)?;
        text.replace('_', "").parse().map_err(|_| {
            Error::InvalidInput(format!("`{key}={text}` in `{}`: expected a whole number >= 0 that fits", self.kind))
        })
    }

    fn float(&mut self, key: &str) -> Result<f64> {
        let text = self.required(key)?;
        let value: f64 = text
            .replace('_', "")
            .parse()
            .map_err(|_| Error::InvalidInput(format!("`{key}={text}` in `{}`: expected a number", self.kind)))?;
        if !value.is_finite() {
            return Err(Error::InvalidInput(format!("`{key}={text}` in `{}`: expected a finite number", self.kind)));
        }
        Ok(value)
    }

    fn seed(&mut self) -> Result<u64> {
        if self.values.contains_key("seed") { self.int("seed") } else { Ok(0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_and_prints_it_back() {
        let cases = [
            ("random:n=1000000,deg=50,seed=7", GeneratorSpec::Random { n: 1_000_000, deg: 50.0, seed: 7 }),
            ("chain:n=100000", GeneratorSpec::Chain { n: 100_000 }),
            (
                "deep:n=200000,deg=2,depth=20000,seed=7",
                GeneratorSpec::Deep { n: 200_000, deg: 2.0, depth: 20_000, seed: 7 },
            ),
            ("tree:n=1000,arity=3", GeneratorSpec::Tree { n: 1000, arity: 3 }),
            ("ladder:k=40", GeneratorSpec::Ladder { k: 40 }),
            ("scalefree:n=10000,m=2,seed=1", GeneratorSpec::ScaleFree { n: 10_000, m: 2, seed: 1 }),
            ("fan:width=20000,layers=3,seed=1", GeneratorSpec::Fan { width: 20_000, layers: 3, seed: 1 }),
            ("digraph:n=1000,deg=3.5,seed=1", GeneratorSpec::Digraph { n: 1000, deg: 3.5, seed: 1 }),
            ("roots:n=1600000,fan=40,seed=2", GeneratorSpec::ManyRoots { n: 1_600_000, fan: 40, seed: 2 }),
        ];
        for (text, spec) in cases {
            assert_eq!(text.parse::<GeneratorSpec>().unwrap(), spec);
            assert_eq!(spec.to_string(), text);
        }
    }

    #[test]
    fn lenient_spelling_becomes_canonical() {
        let spec: GeneratorSpec = " Random: seed=3 , deg=2.0, n=1_000 ".parse().unwrap();
        assert_eq!(spec.to_string(), "random:n=1000,deg=2,seed=3");
        let default_seed: GeneratorSpec = "fan:width=5,layers=2".parse().unwrap();
        assert_eq!(default_seed.to_string(), "fan:width=5,layers=2,seed=0");
    }

    #[test]
    fn errors_say_what_is_accepted() {
        let err = |s: &str| format!("{:#}", s.parse::<GeneratorSpec>().unwrap_err());
        let unknown = err("grid:n=4");
        assert!(unknown.contains("unknown generator `grid`") && unknown.contains("scalefree:n=..,m=..,seed=.."));
        assert!(err("chain:n=4,deg=2").contains("accepted keys: n"));
        assert!(err("tree:n=4").contains("needs `arity=..`"));
        assert!(err("chain:n=-4").contains("whole number"));
        assert!(err("chain:n=4,n=5").contains("twice"));
        assert!(err("chain:n").contains("not key=value"));
        assert!(err("random:n=10,deg=inf").contains("finite"));
        assert!(err("chain:n=99999999999999999999999").contains("whole number"));
    }

    #[test]
    fn generate_runs_the_generator_and_names_the_spec_on_error() {
        let g = "tree:n=13,arity=3".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        assert_eq!(g.num_edges(), 12);
        let err = "random:n=10,deg=50".parse::<GeneratorSpec>().unwrap().generate().unwrap_err();
        assert!(format!("{err:#}").contains("generating random:n=10,deg=50,seed=0"));
        assert!(!"digraph:n=5,deg=1".parse::<GeneratorSpec>().unwrap().is_acyclic());
    }
}
