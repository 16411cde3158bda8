//! Pictures of the graph for the classroom: the DAG in layers, each box with its id and its interval
//! `[s, post]` in one dimension, that dimension's DFS tree in bold, and what the stepper or the
//! search is doing laid over it. The explorer's picture tab and `grail draw` share all of it.
//!
//! 1. [`Subgraph`] chooses what to show: a small DAG whole, else a neighbourhood with "+N more"
//!    markers (cheap on any graph size).
//! 2. [`build`](mod@build) lays it out ([`layout`]) and dresses it from the labels ([`tree`]) and the
//!    overlays ([`StepOverlay`], [`SearchOverlay`]) into a [`Picture`]; [`cycle`] marks a
//!    component's cycle on it.
//! 3. Renderers: [`svg::render`], [`dot::render`], and the terminal widget
//!    `crate::tui::widgets::picture`. [`style`] is the one table of colours and glyphs they share.

pub mod build;
pub mod cycle;
pub mod dot;
pub mod layout;
pub mod members;
pub mod overlay;
pub mod picture;
pub mod search_trace;
pub mod style;
pub mod subgraph;
pub mod svg;
pub mod tree;

pub use build::{Sources, build};
pub use members::ComponentMembers;
pub use overlay::{QueueClass, SearchOverlay, StepOverlay, StepVertex};
pub use picture::{CutMarker, Legend, Picture, PictureEdge, PictureNode};
pub use style::{EdgeKind, NodeState};
pub use subgraph::{Direction, MAX_CAP, MAX_WHOLE, Subgraph, TooLarge};
