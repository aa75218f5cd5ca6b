use super::from_host::ingest;

#[test]
fn empty_payloads_report_host_event_ingest() {
    assert!(ingest("tool_call", "").is_err());
}
