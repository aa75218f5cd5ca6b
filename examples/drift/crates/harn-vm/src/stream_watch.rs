/// Watches a token stream for tool-call syntax; aborts with `ParseAborted` when it cannot continue.
pub enum StreamEvent {
    Token(String),
    ParseAborted { reason: String },
}
