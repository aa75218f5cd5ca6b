use super::admission::admit;

#[test]
fn provider_admission_gate_reports_past_the_cap() {
    assert!(admit(10, 5));
}
