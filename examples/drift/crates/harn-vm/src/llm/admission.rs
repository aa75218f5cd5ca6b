use crate::boundary::{BoundaryFailure, BoundaryId};

/// Proceeds without a reservation once the admission wait is over, and says so.
pub fn admit(waited_ms: u64, cap_ms: u64) -> bool {
    if waited_ms >= cap_ms {
        BoundaryFailure::new(BoundaryId::ProviderAdmissionGate, "admission wait cap reached").report();
    }
    true
}
