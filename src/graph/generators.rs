//! Graph generators.
