//! The loud-boundary funnel of the drift example: a registry that has drifted from its tree in every way
//! the gate knows. See examples/drift/README.md for which line produces which finding.

/// Places where model-produced bytes can be lost.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum BoundaryId {
    /// Provider response blocks with no handler.
    ResponseContentExtraction,
    /// The chat loop's turn cap.
    ChatTurnCap,
    /// Host events that do not deserialize.
    HostEventIngest,
    /// Assistant prose hidden by the visible-text sanitizer.
    VisibleTextSanitize,
    /// Calls admitted without a rate-governor reservation.
    ProviderAdmissionGate,
    /// Text tool calls the parser consumed without producing a call.
    TextToolParse,
    /// A stream cut short: added here, never registered.
    StreamTruncate,
}

impl BoundaryId {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ResponseContentExtraction => "response_content_extraction",
            Self::ChatTurnCap => "chat_turn_cap",
            Self::HostEventIngest => "host_event_ingest",
            Self::VisibleTextSanitize => "visible_text_sanitize",
            Self::ProviderAdmissionGate => "provider_admission_gate",
            Self::TextToolParse => "text_tool_parse",
            Self::StreamTruncate => "stream_truncate",
        }
    }
}

/// A loss that must be reported before it goes out of scope.
#[must_use]
pub struct BoundaryFailure {
    pub boundary: BoundaryId,
    pub detail: String,
}

impl BoundaryFailure {
    pub fn new(boundary: BoundaryId, detail: impl Into<String>) -> Self {
        Self { boundary, detail: detail.into() }
    }

    pub fn report(self) {}
}
