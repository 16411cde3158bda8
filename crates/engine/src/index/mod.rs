//! The GRAIL index: orders, labels, the labelers (the classic DFS and the BFS pipeline) behind one
//! contract, and index files.

pub mod dfs;
mod dfs_labeler;
mod dfs_out;
mod dfs_regions;
mod dfs_walk;
pub mod labeler;
pub mod labels;
pub mod order;
mod phase_table;
pub mod pipeline;
pub mod store;

pub use dfs_labeler::DfsLabeler;
pub use labeler::{Labeler, Until};
pub use labels::{DimensionLabels, Interval, Labels};
pub use order::Order;
pub use phase_table::{PhaseRow, PhaseTable};
