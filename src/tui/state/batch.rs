//! The Batch tab: where the queries come from, which runs to make, and the last result.

use super::prompt::{Prompt, PromptKind};
use super::{Effect, step};
use crate::query::{Method, RuleSet};
use crate::tui::action::Action;
use crate::tui::worker::{BatchResult, BatchRow, BatchSpec, Job, LabelConfig, QuerySource, RunSpec};
use std::path::PathBuf;
use std::sync::Arc;

/// Settings rows before the run rows.
pub const SETTINGS: [&str; 3] = ["queries from", "count", "seed"];

pub struct BatchState {
    pub count: usize,
    pub seed: u64,
    pub file: Option<PathBuf>,
    pub use_file: bool,
    /// Every (method, threads) pair and whether it runs.
    pub runs: Vec<(RunSpec, bool)>,
    pub selected: usize,
    pub result: Option<Arc<BatchResult>>,
    /// The rules the next batch runs with (`R` switches between every rule and GRAIL's).
    pub rules: RuleSet,
    /// An export name whose files exist, shown to the user: the same name again replaces them.
    replace_asked: Option<PathBuf>,
}

impl BatchState {
    /// The default runs: guided DFS on 1 and all threads, guided BFS on all threads, and, when `gpu`
    /// (a GPU is offered), the GPU batch search, listed first and checked so `r` runs it at once.
    /// Last, unchecked, the exact BFS rows (CPU, and GPU where offered).
    pub fn new(gpu: bool) -> Self {
        let cpu = Method::ALL
            .iter()
            .flat_map(|&method| [1, 0].map(|threads| RunSpec { method, threads, gpu: false, exact: None }))
            .map(|r| (r, r.method == Method::GuidedDfs || (r.method == Method::GuidedBfs && r.threads == 0)));
        // Exact BFS rows last and unchecked: a full BFS per query is slow on purpose.
        let exact = [false, true].into_iter().filter(|&on_gpu| gpu || !on_gpu).map(|g| (RunSpec::exact_bfs(g), false));
        let runs = gpu.then_some((RunSpec::GPU, true)).into_iter().chain(cpu).chain(exact).collect();
        BatchState {
            count: 100_000,
            seed: 1,
            file: None,
            use_file: false,
            runs,
            selected: 0,
            result: None,
            rules: RuleSet::All,
            replace_asked: None,
        }
    }

    /// Settings rows plus run rows: what `j`/`k` move through.
    pub fn rows(&self) -> usize {
        SETTINGS.len() + self.runs.len()
    }

    pub fn setting_value(&self, i: usize) -> String {
        match i {
            0 if self.use_file => self.file.as_ref().map_or("file (F picks one)".into(), |p| p.display().to_string()),
            0 => "random pairs".into(),
            1 | 2 if self.use_file => "not used".into(),
            1 => crate::format::thousands(self.count as u64),
            2 => self.seed.to_string(),
            _ => String::new(),
        }
    }

    /// The exact row whose BFS the frontier panel charts: the one under the cursor when it ran in
    /// the last batch (so a user compares engines by moving to them), else the last exact row that
    /// ran; none before an exact row has run.
    pub fn charted_row(&self) -> Option<&BatchRow> {
        let result = self.result.as_deref()?;
        let under_cursor = self.selected.checked_sub(SETTINGS.len()).and_then(|i| self.runs.get(i)?.0.exact);
        let ran = |row: &&BatchRow| row.frontier.is_some();
        under_cursor
            .and_then(|engine| result.rows.iter().find(|row| row.frontier.as_ref().is_some_and(|f| f.engine == engine)))
            .or_else(|| result.rows.iter().rev().find(ran))
    }

    pub fn spec(&self) -> Option<BatchSpec> {
        let source = if self.use_file {
            QuerySource::File(self.file.clone()?)
        } else {
            QuerySource::Random { count: self.count, seed: self.seed }
        };
        let runs = self.runs.iter().filter(|(_, on)| *on).map(|(r, _)| *r).collect();
        Some(BatchSpec { source, runs, rules: self.rules })
    }

    pub fn handle(&mut self, action: Action, config: LabelConfig) -> Option<Effect> {
        let rows = self.rows();
        if self.use_file
            && matches!(self.selected, 1 | 2)
            && matches!(action, Action::Enter | Action::Left | Action::Right)
        {
            let why = "count and seed are for random pairs; h or l on \"queries from\" switches to them";
            return Some(Effect::Error(why.into()));
        }
        match action {
            Action::Up => self.selected = step(self.selected, -1, rows),
            Action::Down => self.selected = step(self.selected, 1, rows),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = rows - 1,
            Action::Left => self.adjust(-1),
            Action::Right => self.adjust(1),
            Action::ToggleRow => self.toggle(),
            Action::Enter => match self.selected {
                1 | 2 => {
                    let title = SETTINGS[self.selected];
                    let value = if self.selected == 1 { self.count.to_string() } else { self.seed.to_string() };
                    return Some(Effect::Prompt(Prompt::new(PromptKind::BatchField(self.selected), title, value)));
                }
                0 => return self.pick_file(),
                _ => self.toggle(),
            },
            Action::QueryFile => return self.pick_file(),
            Action::RunBatch => {
                return match self.spec() {
                    Some(spec) if spec.runs.is_empty() => {
                        Some(Effect::Error("no run selected: Space toggles runs".into()))
                    }
                    Some(spec) => Some(Effect::Job(Job::Batch(spec, config))),
                    None => Some(Effect::Error("no query file chosen: F picks one".into())),
                };
            }
            Action::Export => {
                return if self.result.is_some() {
                    Some(Effect::Prompt(Prompt::new(
                        PromptKind::ExportPath,
                        "export to (.csv and .json are added)",
                        self.export_name(),
                    )))
                } else {
                    Some(Effect::Error("nothing to export yet: r runs the batch".into()))
                };
            }
            _ => {}
        }
        None
    }

    /// Exports the shown result to `base` (.csv and .json added). Files of that name are not
    /// replaced without a word: the first time the prompt comes back saying so, and the same name
    /// again replaces them.
    pub fn export_to(&mut self, base: PathBuf) -> Option<Effect> {
        let result = Arc::clone(self.result.as_ref()?);
        let existing: Vec<&str> = ["csv", "json"].into_iter().filter(|ext| base.with_extension(ext).exists()).collect();
        if !existing.is_empty() && self.replace_asked.as_ref() != Some(&base) {
            let name = base.file_name().map_or_else(|| base.display().to_string(), |n| n.to_string_lossy().into());
            let title = match existing[..] {
                [ext] => format!("{name}.{ext} exists: Enter replaces it"),
                _ => format!("{name}.csv and .json exist: Enter replaces them"),
            };
            let text = base.display().to_string();
            self.replace_asked = Some(base);
            return Some(Effect::Prompt(Prompt::new(PromptKind::ExportPath, &title, text)));
        }
        self.replace_asked = None;
        Some(Effect::Job(Job::Export { result, base }))
    }

    /// The export's default name: after the query file (`grail-batch-citeseer_100k_p`), or the
    /// seed of the random pairs.
    fn export_name(&self) -> String {
        let stem = self.file.as_ref().filter(|_| self.use_file).and_then(|p| p.file_name()).map(|name| {
            let name = name.to_string_lossy();
            let name = name.strip_suffix(".gz").unwrap_or(&name);
            name.rsplit_once('.').map_or(name, |(stem, _)| stem).to_string()
        });
        match stem {
            Some(stem) => format!("grail-batch-{stem}"),
            None => format!("grail-batch-seed{}", self.seed),
        }
    }

    fn pick_file(&self) -> Option<Effect> {
        let text = self.file.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
        Some(Effect::Prompt(Prompt::new(PromptKind::QueryFile, "query file (src dst [expected] per line)", text)))
    }

    fn toggle(&mut self) {
        match self.selected {
            0 => self.use_file = !self.use_file,
            i if i >= SETTINGS.len() => {
                if let Some(run) = self.runs.get_mut(i - SETTINGS.len()) {
                    run.1 = !run.1;
                }
            }
            _ => {}
        }
    }

    fn adjust(&mut self, delta: i64) {
        match self.selected {
            0 => self.use_file = !self.use_file,
            1 => {
                self.count =
                    if delta > 0 { self.count.saturating_mul(10).min(100_000_000) } else { (self.count / 10).max(1) }
            }
            2 => self.seed = self.seed.saturating_add_signed(delta),
            _ => self.toggle(),
        }
    }

    pub fn set_field(&mut self, field: usize, text: &str) -> Option<Effect> {
        let text = text.trim().replace([',', '_'], "");
        match (field, text.parse::<u64>()) {
            (1, Ok(n)) if (1..=100_000_000).contains(&n) => self.count = n as usize,
            (1, _) => return Some(Effect::Error(format!("count must be 1 to 100,000,000, not '{text}'"))),
            (2, Ok(s)) => self.seed = s,
            (2, _) => return Some(Effect::Error(format!("'{text}' is not a seed (a whole number ≥ 0)"))),
            _ => {}
        }
        None
    }

    pub fn set_file(&mut self, path: PathBuf) {
        self.file = Some(path);
        self.use_file = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_and_seed_stay_as_they_are_while_a_file_gives_the_pairs() {
        let mut state = BatchState::new(false);
        state.set_file(PathBuf::from("pairs.txt"));
        let config = crate::tui::worker::labeling::DEFAULT_CONFIG;
        for row in [1, 2] {
            state.selected = row;
            assert_eq!(state.setting_value(row), "not used");
            for action in [Action::Enter, Action::Left, Action::Right] {
                assert!(matches!(state.handle(action, config), Some(Effect::Error(_))));
            }
        }
        assert_eq!((state.count, state.seed), (100_000, 1));
        // Back to random pairs: both can be changed again.
        state.selected = 0;
        state.handle(Action::Right, config);
        state.selected = 2;
        state.handle(Action::Right, config);
        assert_eq!(state.seed, 2);
    }

    #[test]
    fn the_export_is_named_after_the_query_file_or_the_seed() {
        let mut state = BatchState::new(false);
        assert_eq!(state.export_name(), format!("grail-batch-seed{}", state.seed));
        state.file = Some(PathBuf::from("/data/queries/citeseer_100k_p.test.gz"));
        assert_eq!(state.export_name(), format!("grail-batch-seed{}", state.seed), "the file not in use");
        state.use_file = true;
        assert_eq!(state.export_name(), "grail-batch-citeseer_100k_p");
        state.file = Some(PathBuf::from("pairs"));
        assert_eq!(state.export_name(), "grail-batch-pairs");
    }
}
