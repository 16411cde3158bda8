//! The Exceptions tab: false-positive pairs for d = 1..5.

use super::Effect;
use super::prompt::{Prompt, PromptKind};
use crate::tui::action::Action;
use crate::tui::worker::{ExceptionResult, Job};

pub struct ExceptionsState {
    pub seed: u64,
    /// Whether the explorer offers a GPU to count on.
    pub gpu: bool,
    pub result: Option<ExceptionResult>,
    /// The chosen example pair (an index into the result's examples).
    pub selected: usize,
}

impl ExceptionsState {
    /// `gpu`: the explorer offers a GPU, so counts go there (`ExceptionPlan`).
    pub fn new(gpu: bool) -> ExceptionsState {
        ExceptionsState { seed: 1, gpu, result: None, selected: 0 }
    }

    pub fn handle(&mut self, action: Action) -> Option<Effect> {
        match action {
            Action::RunExceptions => Some(Effect::Job(Job::Exceptions { seed: self.seed, gpu: self.gpu })),
            Action::Enter => {
                Some(Effect::Prompt(Prompt::new(PromptKind::ExceptionSeed, "seed", self.seed.to_string())))
            }
            Action::Left => {
                self.seed = self.seed.saturating_sub(1);
                None
            }
            Action::Right => {
                self.seed = self.seed.saturating_add(1);
                None
            }
            Action::Up => {
                self.selected = super::step(self.selected, -1, self.examples().len());
                None
            }
            Action::Down => {
                self.selected = super::step(self.selected, 1, self.examples().len());
                None
            }
            _ => None,
        }
    }

    /// The false-positive pairs found: `(u, v, k)`, DAG ids, the first `k` dimensions fooled.
    pub fn examples(&self) -> &[(u32, u32, usize)] {
        self.result.as_ref().map_or(&[], |r| &r.counts.examples)
    }

    /// The chosen pair, to show on the picture.
    pub fn chosen(&self) -> Option<(u32, u32, usize)> {
        self.examples().get(self.selected).copied()
    }

    pub fn set_seed(&mut self, text: &str) -> Option<Effect> {
        match text.trim().parse() {
            Ok(seed) => {
                self.seed = seed;
                None
            }
            Err(_) => Some(Effect::Error(format!("'{}' is not a seed (a whole number ≥ 0)", text.trim()))),
        }
    }
}
