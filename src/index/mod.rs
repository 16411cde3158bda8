//! The GRAIL index: orders, labels, the classic DFS labeler, and index files.

pub mod dfs;
pub mod labels;
pub mod order;
pub mod pipeline;
pub mod store;

pub use labels::{DimensionLabels, Interval, Labels};
pub use order::Order;
