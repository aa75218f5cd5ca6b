use super::response::{extract_text, Block};
use crate::boundary::BoundaryId;

#[test]
fn unknown_blocks_report_response_content_extraction() {
    // Test files may construct any boundary: this mention is exempt from the site rule.
    let _ = BoundaryId::ResponseContentExtraction;
    assert_eq!(extract_text(&[Block::Other]), "");
}
