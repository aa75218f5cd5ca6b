use crate::boundary::{BoundaryFailure, BoundaryId};

/// Host events whose payload does not deserialize are reported, not dropped.
pub fn ingest(kind: &str, payload: &str) -> Result<(), String> {
    if payload.is_empty() {
        BoundaryFailure::new(BoundaryId::HostEventIngest, format!("empty {kind} payload")).report();
        return Err("empty payload".into());
    }
    Ok(())
}
