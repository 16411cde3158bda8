//! Where clickable things landed in the last frame: the views register areas while they draw, the
//! app looks clicks up. Its own file so that the app and the drawing code need not import each other.

use super::action::Tab;
use ratatui::layout::{Position, Rect};

/// Something a click can hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    Tab(Tab),
    LabelField(usize),
    BatchRow(usize),
    /// One of the Graph tab's listed cyclic components.
    CycleRow(usize),
    /// A visible row of the search tree.
    TreeRow(usize),
}

/// Clickable areas of the last frame.
#[derive(Clone, Debug, Default)]
pub struct Hitmap {
    areas: Vec<(Rect, Hit)>,
}

impl Hitmap {
    pub fn add(&mut self, area: Rect, hit: Hit) {
        self.areas.push((area, hit));
    }

    /// The last registered area under `(x, y)` (overlays register after what they cover).
    pub fn at(&self, x: u16, y: u16) -> Option<Hit> {
        self.areas.iter().rev().find(|(r, _)| r.contains(Position { x, y })).map(|&(_, h)| h)
    }
}
