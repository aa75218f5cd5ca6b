/// Strips `<user_response>` blocks from assistant text. The loss is no longer reported here.
pub fn sanitize(text: &str) -> String {
    match text.find("<user_response>") {
        Some(at) => text[..at].to_string(),
        None => text.to_string(),
    }
}
