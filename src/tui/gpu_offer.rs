//! The GPU the explorer offers (the Labels tab's GPU back end, the Batch tab's GPU run), decided
//! once when the explorer starts. The program probes the machine ([`GpuOffer::probe`]); tests and
//! the test fixtures pass their own, so the screens of a GPU machine can be checked on one without.

/// Whether the explorer offers a GPU, and which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuOffer {
    /// A usable GPU, by name.
    Present { name: String },
    /// None, and why (`grail selftest --gpu` prints the same reason).
    Absent { reason: String },
}

impl GpuOffer {
    /// What this machine has ([`crate::gpu::availability`], asked once per process).
    pub fn probe() -> GpuOffer {
        match crate::gpu::availability() {
            Ok(info) => GpuOffer::Present { name: info.name.clone() },
            Err(reason) => GpuOffer::Absent { reason: reason.clone() },
        }
    }

    /// No GPU, for screens that must look the same on every machine (snapshots).
    pub fn none() -> GpuOffer {
        GpuOffer::Absent { reason: "no GPU offered".into() }
    }

    pub fn is_present(&self) -> bool {
        matches!(self, GpuOffer::Present { .. })
    }

    /// A short line for screens: `GPU: <name>`, or that there is none.
    pub fn describe(&self) -> String {
        match self {
            GpuOffer::Present { name } => format!("GPU: {name}"),
            GpuOffer::Absent { .. } => "GPU: none on this machine".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_the_device_or_its_absence() {
        let present = GpuOffer::Present { name: "NVIDIA H100".into() };
        assert!(present.is_present());
        assert_eq!(present.describe(), "GPU: NVIDIA H100");
        assert!(!GpuOffer::none().is_present());
        assert_eq!(GpuOffer::none().describe(), "GPU: none on this machine");
    }
}
