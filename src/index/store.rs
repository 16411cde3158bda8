//! Index files.
