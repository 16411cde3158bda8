//! The Exceptions tab: false-positive pairs for d = 1..5.

use super::Effect;
use super::prompt::{Prompt, PromptKind};
use crate::tui::action::Action;
use crate::tui::worker::{ExceptionResult, Job};

pub struct ExceptionsState {
    pub seed: u64,
    pub result: Option<ExceptionResult>,
}

impl Default for ExceptionsState {
    fn default() -> Self {
        ExceptionsState { seed: 1, result: None }
    }
}

impl ExceptionsState {
    pub fn handle(&mut self, action: Action) -> Option<Effect> {
        match action {
            Action::RunExceptions => Some(Effect::Job(Job::Exceptions { seed: self.seed })),
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
            _ => None,
        }
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
