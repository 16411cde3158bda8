//! Queries: the cheap rules, label-guided search, batches and the exact oracle.
