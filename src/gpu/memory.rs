//! Device allocations with names, so telemetry can say which structure holds how many bytes.

use super::Gpu;
use anyhow::{Context, Result};
use bytemuck::Pod;
use cudarc::driver::{CudaSlice, CudaStream, DeviceRepr, ValidAsZeroBits};
use std::sync::Arc;

/// The bytes held by each named device allocation of a run (allocations of one name, such as each
/// side-by-side dimension's tree, add up under it).
#[derive(Default, Debug)]
pub struct Ledger {
    entries: Vec<(String, u64)>,
}

impl Ledger {
    /// Allocates `len` zeroed elements and records them under `name`; running out of memory is an
    /// error that says how much was asked for.
    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(
        &mut self,
        stream: &Arc<CudaStream>,
        name: &str,
        len: usize,
    ) -> Result<CudaSlice<T>> {
        let bytes = (len.max(1) * std::mem::size_of::<T>()) as u64;
        let slice = stream
            .alloc_zeros::<T>(len.max(1))
            .with_context(|| format!("out of GPU memory: {name} needs {bytes} bytes"))?;
        self.record(name, bytes);
        Ok(slice)
    }

    /// Copies `data` to the device and records it under `name`.
    pub fn upload<T: DeviceRepr + Pod + Send + Sync>(
        &mut self,
        gpu: &Gpu,
        name: &str,
        data: &[T],
    ) -> Result<CudaSlice<T>> {
        let bytes = std::mem::size_of_val(data) as u64;
        // SAFETY: every element is written by the upload below before any kernel reads it.
        let mut slice = unsafe { gpu.stream.alloc::<T>(data.len()) }
            .with_context(|| format!("out of GPU memory: {name} needs {bytes} bytes"))?;
        gpu.staging()?.upload(&gpu.stream, data, &mut slice).with_context(|| format!("cannot upload {name}"))?;
        self.record(name, bytes);
        Ok(slice)
    }

    fn record(&mut self, name: &str, bytes: u64) {
        match self.entries.iter_mut().find(|(n, _)| n == name) {
            Some((_, total)) => *total += bytes,
            None => self.entries.push((name.to_string(), bytes)),
        }
    }

    pub fn entries(&self) -> &[(String, u64)] {
        &self.entries
    }

    pub fn total(&self) -> u64 {
        self.entries.iter().map(|(_, b)| b).sum()
    }
}
