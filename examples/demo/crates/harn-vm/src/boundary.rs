//! The loud-boundary funnel of the demo runtime: every boundary that can lose model output is a
//! `BoundaryId` variant, and `as_str` gives its wire id (the registry's `id`).

/// Places where model-produced bytes can be lost.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum BoundaryId {
    /// Provider response blocks with no handler.
    ResponseContentExtraction,
    /// The chat loop's turn cap.
    ChatTurnCap,
}

impl BoundaryId {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ResponseContentExtraction => "response_content_extraction",
            Self::ChatTurnCap => "chat_turn_cap",
        }
    }
}

/// A loss that must be reported before it goes out of scope.
pub struct BoundaryFailure {
    pub boundary: BoundaryId,
    pub detail: String,
}
