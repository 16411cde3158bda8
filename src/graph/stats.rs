//! Graph statistics.
