use crate::boundary::{BoundaryFailure, BoundaryId};

/// Keeps the text blocks of a provider response and reports the ones it cannot handle.
pub fn extract_text(blocks: &[Block]) -> String {
    let mut text = String::new();
    let mut dropped = 0;
    for block in blocks {
        match block {
            Block::Text(t) => text.push_str(t),
            Block::Other => dropped += 1,
        }
    }
    if dropped > 0 {
        BoundaryFailure::new(BoundaryId::ResponseContentExtraction, format!("{dropped} block(s) without a handler")).report();
    }
    text
}

pub enum Block {
    Text(String),
    Other,
}
