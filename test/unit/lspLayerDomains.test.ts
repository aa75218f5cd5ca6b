// Domain rules the LSP adaptors used to hold, tested where they now live: the boundary id under the
// cursor (.harn, .rs, registry), a string literal's content between its delimiters, the gate's site
// exemption, multi-file edits arriving one file at a time, and what the router says a document is.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { harnIdAt, registryIdAt, rustIdAt } from '../../server/src/boundaries/idAt';
import { scanHarnBoundaries } from '../../server/src/boundaries/harnSites';
import { parseRegistry } from '../../server/src/boundaries/registry';
import { isExemptSite, parseFunnel } from '../../server/src/boundaries/rust';
import { DocumentRouter } from '../../server/src/features/router';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { stringContent } from '../../server/src/harn/strings';
import { StringLit } from '../../server/src/harn/ast';
import { pathToUri } from '../../server/src/workspace/harnWorkspace';
import { PendingEdits } from '../../server/src/workspace/pendingEdits';
import { readSettings } from '../../server/src/workspace/settings';

const FUNNEL = `pub enum BoundaryId {
    ChatTurnCap,
    TextToolParse,
}

impl BoundaryId {
    pub fn as_str(self) -> &'static str {
        match self {
            BoundaryId::ChatTurnCap => "chat_turn_cap",
            BoundaryId::TextToolParse => "text_tool_parse",
        }
    }
}
`;

const at = (text: string, needle: string, delta = 1): number => {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `${needle} not in the text`);
  return i + delta;
};
const cut = (text: string, r: { start: number; end: number } | undefined): string | undefined => r && text.slice(r.start, r.end);

describe('the boundary id under the cursor', () => {
  test('.harn: the string literal (or the constant) of a boundary: field', () => {
    const text = 'const CAP = "text_tool_parse"\nfn f() {\n  let a = {boundary: "chat_turn_cap", kind: "capped"}\n  let b = {boundary: CAP}\n}\n';
    const scan = scanHarnBoundaries(new HarnAnalysis(text));
    const inString = harnIdAt(scan, at(text, '"chat_turn_cap"', 3));
    assert.deepEqual({ id: inString?.id, text: cut(text, inString?.range) }, { id: 'chat_turn_cap', text: '"chat_turn_cap"' });
    const viaConstant = harnIdAt(scan, at(text, 'boundary: CAP', 11));
    assert.deepEqual({ id: viaConstant?.id, text: cut(text, viaConstant?.range) }, { id: 'text_tool_parse', text: 'CAP' });
    assert.equal(harnIdAt(scan, at(text, '"capped"')), undefined);
  });

  test('.rs: a BoundaryId::X mention maps through the funnel; the funnel names ids in its arms and variants', () => {
    const funnel = parseFunnel(FUNNEL);
    const site = 'fn f() { report(BoundaryId::TextToolParse, x); }';
    const mention = rustIdAt(site, funnel, false, at(site, 'TextToolParse'));
    assert.deepEqual({ id: mention?.id, text: cut(site, mention?.range) }, { id: 'text_tool_parse', text: 'TextToolParse' });
    assert.equal(rustIdAt(site, funnel, false, at(site, 'report')), undefined);
    // In the funnel: the wire string of an arm, the enum variant.
    const wire = rustIdAt(FUNNEL, funnel, true, at(FUNNEL, '"chat_turn_cap"', 2));
    assert.deepEqual({ id: wire?.id, text: cut(FUNNEL, wire?.range) }, { id: 'chat_turn_cap', text: '"chat_turn_cap"' });
    const variant = rustIdAt(FUNNEL, funnel, true, at(FUNNEL, '    TextToolParse,', 6));
    assert.deepEqual({ id: variant?.id, text: cut(FUNNEL, variant?.range) }, { id: 'text_tool_parse', text: 'TextToolParse' });
    // The same variant text in a file that is not the funnel is no id.
    assert.equal(rustIdAt('enum X {\n    TextToolParse,\n}\n', funnel, false, 12), undefined);
  });

  test('registry: the id of a [[boundary]] or [[audited]] entry', () => {
    const text = '[[boundary]]\nid = "chat_turn_cap"\ntitle = "Cap"\n\n[[audited]]\nid = "host_event"\ntitle = "Host"\n';
    const registry = parseRegistry(text);
    const entry = registryIdAt(registry, at(text, '"chat_turn_cap"', 4));
    assert.deepEqual({ id: entry?.id, text: cut(text, entry?.range) }, { id: 'chat_turn_cap', text: '"chat_turn_cap"' });
    assert.equal(registryIdAt(registry, at(text, '"host_event"', 2))?.id, 'host_event');
    assert.equal(registryIdAt(registry, at(text, '"Cap"', 1)), undefined);
  });
});

describe('stringContent', () => {
  const literal = (text: string): StringLit => ({
    kind: 'String',
    start: 0,
    end: text.length,
    raw: text.startsWith('r'),
    triple: text.startsWith('"""'),
    parts: [],
    value: undefined,
  });
  const content = (text: string): [string, boolean] => {
    const c = stringContent(text, literal(text));
    return [text.slice(c.start, c.end), c.closed];
  };
  test('between each kind of delimiter', () => {
    assert.deepEqual(content('"abc"'), ['abc', true]);
    assert.deepEqual(content('"""abc"""'), ['abc', true]);
    assert.deepEqual(content('r"abc"'), ['abc', true]);
    assert.deepEqual(content('r##"a"#b"##'), ['a"#b', true]);
    assert.deepEqual(content('""'), ['', true]);
  });
  test('to the end of an unterminated literal', () => {
    assert.deepEqual(content('"ab'), ['ab', false]);
    assert.deepEqual(content('"'), ['', false]);
    assert.deepEqual(content('"""ab"'), ['ab"', false]);
    assert.deepEqual(content('r#"ab"'), ['ab"', false]);
  });
});

test('site exemption: the funnel and Rust test files are no sites, .harn files always are', () => {
  const funnel = 'crates/harn-vm/src/boundary.rs';
  assert.equal(isExemptSite(funnel, funnel), true);
  assert.equal(isExemptSite('crates/harn-vm/src/tests/a.rs', funnel), true);
  assert.equal(isExemptSite('crates/harn-vm/src/llm_tests.rs', funnel), true);
  assert.equal(isExemptSite('crates/harn-vm/src/llm.rs', funnel), false);
  // Upstream's contains("/tests/") needs a slash before `tests`.
  assert.equal(isExemptSite('tests/a.rs', funnel), false);
  assert.equal(isExemptSite('crates/x/tests/a.harn', funnel), false);
});

describe('PendingEdits', () => {
  const clock = { t: 0 };
  const texts = new Map<string, string>();
  const read = (p: string): string | undefined => texts.get(p);
  const fresh = (): PendingEdits => {
    clock.t = 0;
    texts.clear();
    texts.set('reg', 'r0').set('fun', 'f0');
    return new PendingEdits(() => clock.t, 1000);
  };
  const twoFiles = new Map([
    ['reg', { before: 'r0', after: 'r1' }],
    ['fun', { before: 'f0', after: 'f1' }],
  ]);
  const write = (edits: PendingEdits, p: string, text: string): void => {
    texts.set(p, text);
    edits.changed(p, text, read);
  };

  test('holds results while a two-file edit is half applied, releases them once it is whole', () => {
    const edits = fresh();
    edits.offer(twoFiles);
    assert.equal(edits.holdUntil(read), undefined, 'an offered edit that nobody applied holds nothing');
    write(edits, 'reg', 'r1');
    clock.t = 10;
    assert.equal(edits.holdUntil(read), 1000);
    write(edits, 'fun', 'f1');
    assert.equal(edits.holdUntil(read), undefined);
    assert.equal(edits.concerns('reg'), false, 'a finished edit is forgotten');
  });

  test('gives a half-applied edit up after the grace period', () => {
    const edits = fresh();
    edits.offer(twoFiles);
    write(edits, 'reg', 'r1');
    clock.t = 999;
    assert.equal(edits.holdUntil(read), 1000);
    clock.t = 1000;
    assert.equal(edits.holdUntil(read), undefined);
    assert.equal(edits.concerns('fun'), false);
  });

  test('gives it up at once when the other file is edited to something else', () => {
    const edits = fresh();
    edits.offer(twoFiles);
    write(edits, 'reg', 'r1');
    texts.set('fun', 'typed by hand');
    assert.equal(edits.holdUntil(read), undefined);
    assert.equal(edits.concerns('reg'), false);
  });

  test('an old offer whose files have changed since does not start when one file happens to get its text', () => {
    const edits = fresh();
    edits.offer(twoFiles);
    texts.set('fun', 'f-crlf');
    write(edits, 'reg', 'r1');
    assert.equal(edits.holdUntil(read), undefined);
  });

  test('a single-file edit and a change to another text hold nothing', () => {
    const edits = fresh();
    edits.offer(new Map([['reg', { before: 'r0', after: 'r1' }]]));
    assert.equal(edits.concerns('reg'), false);
    edits.offer(twoFiles);
    write(edits, 'reg', 'something else');
    assert.equal(edits.holdUntil(read), undefined);
  });
});

describe('DocumentRouter', () => {
  const root = path.resolve('/work/space');
  const defaults = readSettings(undefined).settings;
  const router = new DocumentRouter();
  router.configure([{ root, settings: defaults }], defaults);
  const kind = (relative: string, text?: string, languageId?: string) =>
    router.kindOf(pathToUri(path.join(root, relative)), text === undefined ? undefined : { languageId, getText: () => text });
  test('by extension, registry path, artifact globs and first rows', () => {
    assert.equal(kind('a/b.harn', ''), 'harn');
    assert.equal(kind('untitled', '', 'harn'), 'harn');
    assert.equal(kind('crates/x/src/lib.rs', ''), 'rust');
    assert.equal(kind('scripts/loud_boundaries.toml', ''), 'registry');
    assert.equal(kind('Cargo.toml', ''), undefined);
    assert.equal(kind('runs/x/llm_transcript.jsonl', ''), 'transcript');
    assert.equal(kind('runs/x/event_log-2.jsonl', ''), 'eventLog');
    assert.equal(kind('runs/x/run.json', '{}'), 'runRecord');
    assert.equal(kind('runs/x/other.json', '{"_type": "run_record"}'), 'runRecord');
    assert.equal(kind('runs/x/other.json', '{"a": 1}'), undefined);
    assert.equal(kind('runs/x/notes.jsonl', '{"a": 1}'), 'jsonl');
    assert.equal(kind('runs/x/events.ndjson', '{"a": 1}'), 'jsonl');
    assert.equal(kind('README.md', ''), undefined);
  });

  test('training example files before the artifact globs: by name, or a .json by its top-level schema_version', () => {
    const v1 = '{"schema_version": "harn.agent_training_example.v1", "messages": []}';
    assert.equal(kind('runs/x/run.training.json', '{}'), 'trainingExample');
    assert.equal(kind('runs/x/llm_transcript.training.jsonl', '{"type":"message"}'), 'trainingExample');
    assert.equal(kind('runs/x/export.json', v1), 'trainingExample');
    // A run record's name does not win over the schema it declares.
    assert.equal(kind('runs/x/run.json', v1), 'trainingExample');
    assert.equal(kind('runs/x/export.json', `{"nested": ${v1}}`), undefined);
    assert.equal(kind('runs/x/batch.jsonl', v1), 'jsonl');
  });

  test("multi-root: each file by its own folder's settings, the window's outside every folder", () => {
    const a = path.resolve('/work/a');
    const b = path.resolve('/work/a/b');
    const inB = readSettings({ boundaries: { registryPath: 'gate.toml' }, artifacts: { transcriptGlobs: ['logs/*.jsonl'] } }).settings;
    const loose = readSettings({ artifacts: { eventLogGlobs: ['*.events.jsonl'] } }).settings;
    const multi = new DocumentRouter();
    multi.configure(
      [
        { root: a, settings: defaults },
        { root: b, settings: inB },
      ],
      loose,
    );
    const at = (file: string, text = '') => multi.kindOf(pathToUri(file), { getText: () => text });
    assert.equal(at(path.join(a, 'scripts/loud_boundaries.toml')), 'registry');
    assert.equal(at(path.join(a, 'gate.toml')), undefined);
    assert.equal(at(path.join(b, 'gate.toml')), 'registry');
    assert.equal(at(path.join(b, 'scripts/loud_boundaries.toml')), undefined);
    assert.equal(at(path.join(b, 'logs/x.jsonl'), '{"a": 1}'), 'transcript');
    assert.equal(at(path.join(a, 'logs/x.jsonl'), '{"a": 1}'), 'jsonl');
    assert.equal(at(path.join(a, 'llm_transcript.jsonl')), 'transcript');
    // Outside every folder: no registry at all, and the window's globs (matched on the file name).
    assert.equal(at(path.resolve('/elsewhere/scripts/loud_boundaries.toml')), undefined);
    assert.equal(at(path.resolve('/elsewhere/run.events.jsonl'), '{"a": 1}'), 'eventLog');
  });
});
