//! The GPU batch search's device data, kept between the Batch tab's runs while the labels and the
//! query index stay the same: a second GPU run pays no upload.

use crate::gpu::Gpu;
use crate::gpu::search_index::SearchIndex;
use crate::index::Labels;
use crate::query::{Engine, QueryIndex};
use anyhow::Result;
use std::sync::Arc;

/// The uploaded data and what it was uploaded from (held, so that a match by address is a match).
#[derive(Default)]
pub struct ResidentSearch {
    held: Option<(Arc<Labels>, Option<Arc<QueryIndex>>, SearchIndex)>,
}

impl ResidentSearch {
    /// The device data for `engine` (built on `labels` and `index`): the kept one when they are the
    /// ones it was uploaded from, else a fresh upload. Also whether this call uploaded.
    pub fn get(
        &mut self,
        gpu: &Gpu,
        engine: &Engine,
        labels: &Arc<Labels>,
        index: Option<&Arc<QueryIndex>>,
    ) -> Result<(&SearchIndex, bool)> {
        let same = |(l, i, _): &(Arc<Labels>, Option<Arc<QueryIndex>>, SearchIndex)| {
            Arc::ptr_eq(l, labels)
                && match (i, index) {
                    (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                    (None, None) => true,
                    _ => false,
                }
        };
        let uploaded = !self.held.as_ref().is_some_and(same);
        if uploaded {
            // The old data goes first: two copies of a large graph may not fit the device.
            self.held = None;
            let search = SearchIndex::upload(gpu, engine)?;
            self.held = Some((Arc::clone(labels), index.cloned(), search));
        }
        let (_, _, search) = self.held.as_ref().expect("set above");
        Ok((search, uploaded))
    }
}
