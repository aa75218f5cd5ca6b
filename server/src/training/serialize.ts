// A training example as upstream's serde writes it: keys in struct order (the field order of example.ts),
// optional fields absent where upstream skips them (`skip_serializing_if`), 2-space indent, trailing newline.
// Values inside `tools` and `arguments` are written as parsed (JSON.parse keeps neither a number's spelling
// such as `1.0`, nor the position of integer-like keys, which JavaScript objects list first).

import type { AgentTrainingExample, TrainingMessage, TrainingProvenance } from './example';

function message(m: TrainingMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content };
  if (m.tool_calls !== undefined && m.tool_calls.length > 0) {
    out.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: c.type, function: { name: c.function.name, arguments: c.function.arguments } }));
  }
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.name !== undefined) out.name = m.name;
  return out;
}

function provenance(p: TrainingProvenance): Record<string, unknown> {
  const out: Record<string, unknown> = { run_id: p.run_id, session_id: p.session_id };
  if (p.stage_id !== undefined) out.stage_id = p.stage_id;
  out.provider = p.provider;
  out.model = p.model;
  if (p.route_policy !== undefined) out.route_policy = p.route_policy;
  if (p.declared_tool_format !== undefined) out.declared_tool_format = p.declared_tool_format;
  out.effective_tool_format = p.effective_tool_format;
  out.tool_catalog_hash = p.tool_catalog_hash;
  if (p.tool_catalog_content_hash !== undefined) out.tool_catalog_content_hash = p.tool_catalog_content_hash;
  out.terminal_status = p.terminal_status;
  out.usage = { provider_calls: p.usage.provider_calls, input_tokens: p.usage.input_tokens, output_tokens: p.usage.output_tokens };
  const s = p.source;
  out.source = {
    descriptor_schema_version: s.descriptor_schema_version,
    transcript_path: s.transcript_path,
    transcript_sha256: s.transcript_sha256,
    transcript_byte_len: s.transcript_byte_len,
    event_count: s.event_count,
    first_event_index: s.first_event_index,
    last_event_index: s.last_event_index,
    first_event_id: s.first_event_id,
    last_event_id: s.last_event_id,
  };
  return out;
}

/** The example as JSON text in upstream's key order, pretty-printed with 2 spaces, ending in "\n". */
export function trainingExampleJson(example: AgentTrainingExample): string {
  const ordered = {
    schema_version: example.schema_version,
    messages: example.messages.map(message),
    tools: example.tools,
    provenance: provenance(example.provenance),
  };
  return JSON.stringify(ordered, null, 2) + '\n';
}
