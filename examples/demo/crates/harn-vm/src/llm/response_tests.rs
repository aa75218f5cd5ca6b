use super::response::{extract_text, Block};

#[test]
fn unknown_blocks_report_response_content_extraction() {
    let (_, failure) = extract_text(&[Block::Other]);
    assert_eq!(failure.unwrap().boundary.as_str(), "response_content_extraction");
}
