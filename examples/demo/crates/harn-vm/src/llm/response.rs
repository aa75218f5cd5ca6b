use crate::boundary::{BoundaryFailure, BoundaryId};

/// Keeps the text blocks of a provider response and reports the ones it cannot handle.
pub fn extract_text(blocks: &[Block]) -> (String, Option<BoundaryFailure>) {
    let mut text = String::new();
    let mut dropped = 0;
    for block in blocks {
        match block {
            Block::Text(t) => text.push_str(t),
            // "BoundaryId::ChatTurnCap" in a string is not a construction site.
            _ => dropped += 1,
        }
    }
    let failure = (dropped > 0).then(|| BoundaryFailure {
        boundary: BoundaryId::ResponseContentExtraction,
        detail: format!("{dropped} block(s) without a handler"),
    });
    (text, failure)
}

pub enum Block {
    Text(String),
    Other,
}
