// aion's run-workspace rules (runWorkspace/rules.ts), case by case. As in the seed's own tests
// (aion-integrations' workspace tests), each refusal stands beside an acceptance whose input differs only in the
// field under test, so that a resolver refusing everything, or ignoring the input, fails here.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { directoryForRun, promptForRun, Refusal, RefusalKind, RunWorkspaceConfig } from '../../server/src/runWorkspace/rules';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const json = (value: unknown): Uint8Array => bytes(JSON.stringify(value));
const perRun = (parameter: string): RunWorkspaceConfig => ({ perRun: parameter });

/** The refusal's kind, with its message checked to say that the run is not started and to hold every `says`. */
function refused(result: { ok: true } | Refusal, kind: RefusalKind, ...says: string[]): string {
  assert.equal(result.ok, false, `expected a refusal (${kind}), got ${JSON.stringify(result)}`);
  if (result.ok) return '';
  assert.equal(result.kind, kind, result.message);
  assert.match(result.message, /the run is not started\.$/);
  for (const s of says) assert.ok(result.message.includes(s), `${JSON.stringify(result.message)} should say ${JSON.stringify(s)}`);
  return result.message;
}

describe('directoryForRun: fixed', () => {
  test('fixed ignores the input: none, bytes that are not JSON, and an object naming another directory', () => {
    const config = { fixed: '/srv/one-tree' };
    for (const input of [undefined, bytes('not json at all'), Uint8Array.of(0xff, 0xfe), json({ repo: '/srv/other' })]) {
      assert.deepEqual(directoryForRun(config, input), { ok: true, directory: '/srv/one-tree' });
    }
  });

  test('fixed returns the path as written (the launcher checks it)', () => {
    assert.deepEqual(directoryForRun({ fixed: 'relative/dir' }, undefined), { ok: true, directory: 'relative/dir' });
  });

  test('a blank fixed directory is refused as a configuration that places no run', () => {
    refused(directoryForRun({ fixed: '  ' }, undefined), 'invalid_config', '"fixed"', 'blank directory');
  });
});

describe('directoryForRun: perRun', () => {
  test('seed: a job that names its tree resolves to that tree (PerRun("repo"), {"repo": "/srv/lane-3"})', () => {
    assert.deepEqual(directoryForRun(perRun('repo'), json({ repo: '/srv/lane-3' })), { ok: true, directory: '/srv/lane-3' });
  });

  test("spec B.3's input: repo_dir is the directory, whatever the other fields", () => {
    const input = json({ repo_dir: '/srv/aion/clones/run-7/repo', task: 'Make the date parser accept ISO weeks.' });
    assert.deepEqual(directoryForRun(perRun('repo_dir'), input), { ok: true, directory: '/srv/aion/clones/run-7/repo' });
  });

  test('no input at all: refused, naming the parameter and saying to run it with an input', () => {
    refused(directoryForRun(perRun('repo'), undefined), 'input_required', '"repo"', 'no input', 'Run Pipeline With Input', '--input FILE');
  });

  test('bytes that are not UTF-8: refused, naming the bytes, where they are, and the parameter', () => {
    const input = Uint8Array.of(...bytes('{"repo": "/srv/caf'), 0xe9, ...bytes('"}'));
    refused(directoryForRun(perRun('repo'), input), 'input_not_utf8', 'not UTF-8', 'e9', 'at byte 18', '"repo"');
  });

  test('input that is not JSON: refused, naming the parameter and what arrived', () => {
    refused(directoryForRun(perRun('repo'), bytes('repo=/srv/lane-3')), 'input_not_json', 'not JSON', '"repo=/srv/lane-3"', '"repo"');
  });

  test('the message holds none of the input raw: line breaks and control characters arrive escaped', () => {
    const message = refused(directoryForRun(perRun('repo'), bytes('line one\nline two\u0007\r\n')), 'input_not_json', '"line one\\nline two\\u0007\\r\\n"');
    assert.ok(
      [...message].every((c) => c.charCodeAt(0) >= 0x20),
      JSON.stringify(message),
    );
  });

  test('an empty input is not JSON either', () => {
    refused(directoryForRun(perRun('repo'), new Uint8Array()), 'input_not_json', 'not JSON', 'starts ""');
  });

  for (const [value, kind] of [
    ['/srv/lane-3', 'a string'],
    [42, 'a number'],
    [['/srv/lane-3'], 'a list'],
    [null, 'null'],
    [true, 'a boolean'],
  ] as const) {
    test(`input that is JSON but ${kind}, not an object: refused, saying so and what arrived`, () => {
      refused(directoryForRun(perRun('repo'), json(value)), 'input_not_object', `is ${kind}`, `(${JSON.stringify(value)})`, 'not a JSON object', '"repo"');
    });
  }

  test('an object without the parameter: refused, naming the parameter and the fields that arrived; the same object with it resolves', () => {
    refused(
      directoryForRun(perRun('repo'), json({ repository: '/srv/lane-3', task: 't' })),
      'parameter_missing',
      'no "repo" parameter',
      '"repository", "task"',
    );
    assert.deepEqual(directoryForRun(perRun('repo'), json({ repo: '/srv/lane-3', task: 't' })), { ok: true, directory: '/srv/lane-3' });
  });

  test('an empty object: refused, its fields: none', () => {
    refused(directoryForRun(perRun('repo'), json({})), 'parameter_missing', 'its fields: none');
  });

  test('a parameter named like an Object.prototype member is read only from the input itself', () => {
    refused(directoryForRun(perRun('toString'), json({ task: 't' })), 'parameter_missing', '"toString"');
    assert.deepEqual(directoryForRun(perRun('__proto__'), bytes('{"__proto__": "/srv/proto"}')), { ok: true, directory: '/srv/proto' });
  });

  for (const [value, kind] of [
    [null, 'null'],
    [false, 'a boolean'],
    [7, 'a number'],
    [['/srv/a', '/srv/b'], 'a list'],
    [{ path: '/srv/lane-3' }, 'an object'],
  ] as const) {
    test(`the parameter as ${kind}: refused, saying which kind and what arrived`, () => {
      refused(directoryForRun(perRun('repo'), json({ repo: value })), 'parameter_not_string', `"repo" as ${kind}`, 'not a string');
    });
  }

  for (const blank of ['', '   ', '\t\n']) {
    test(`the parameter blank (${JSON.stringify(blank)}): refused; the same input with a path resolves`, () => {
      refused(directoryForRun(perRun('repo'), json({ repo: blank })), 'parameter_blank', '"repo" blank', JSON.stringify(blank));
      assert.deepEqual(directoryForRun(perRun('repo'), json({ repo: '/x' })), { ok: true, directory: '/x' });
    });
  }

  test('the path is returned as written: relative, with .., with spaces, padded (the launcher refuses what it must)', () => {
    for (const written of ['lane-3', '../lane-3', '/srv/a/../b', '/srv/with space/ü', ' /srv/padded ']) {
      assert.deepEqual(directoryForRun(perRun('repo'), json({ repo: written })), { ok: true, directory: written });
    }
  });

  test('a parameter given twice: its last value, as serde_json (aion reads the input with it) and JSON.parse keep', () => {
    assert.deepEqual(directoryForRun(perRun('repo'), bytes('{"repo": "/srv/first", "repo": "/srv/last"}')), { ok: true, directory: '/srv/last' });
    refused(directoryForRun(perRun('repo'), bytes('{"repo": "/srv/first", "repo": null}')), 'parameter_not_string', 'as null');
  });

  test('a UTF-8 BOM, CRLF line endings and a non-BMP character are read', () => {
    const input = bytes('\uFEFF{\r\n  "repo": "/srv/🦀"\r\n}\r\n');
    assert.deepEqual(directoryForRun(perRun('repo'), input), { ok: true, directory: '/srv/🦀' });
  });

  test('a blank parameter name is refused as a configuration that places no run', () => {
    refused(directoryForRun(perRun(''), json({ '': '/srv/x' })), 'invalid_config', '"perRun"', 'blank parameter name');
  });

  test('a long input is shown cut, with its length', () => {
    const message = refused(directoryForRun(perRun('repo'), bytes('x'.repeat(5000))), 'input_not_json', '…" (5000 characters)');
    assert.ok(message.length < 400, message);
  });
});

describe('hostile inputs: bounded messages, no throw', () => {
  test('a list nested 100,000 deep as the parameter: refused as a list, not a crash', () => {
    const deep = '{"repo": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    refused(directoryForRun(perRun('repo'), bytes(deep)), 'parameter_not_string', '"repo" as a list');
  });

  test('an object of 5,000 fields without the parameter: the first 20 named, then how many more', () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field_${i}`, i]));
    const message = refused(directoryForRun(perRun('repo'), json(many)), 'parameter_missing', '"field_19" and 4980 more');
    assert.ok(message.length < 1000, String(message.length));
  });

  test('5,000 fields left for the task: refused as several, bounded', () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, 'x']));
    const message = refused(promptForRun({ fixed: '/srv' }, json(many), []), 'prompt_several', '5000 fields left', 'and 4980 more');
    assert.ok(message.length < 1500, String(message.length));
  });

  test('field names with line breaks are escaped in messages', () => {
    const message = refused(directoryForRun(perRun('repo'), json({ 'a\nb': 1 })), 'parameter_missing', '"a\\nb"');
    assert.ok(!message.includes('\n'));
  });
});

describe('promptForRun', () => {
  const none: readonly string[] = [];

  test('bytes that are not UTF-8: a protocol error, naming the bytes', () => {
    const message = refused(promptForRun(perRun('repo'), Uint8Array.of(0x66, 0x69, 0x78, 0xc3, 0x28), none), 'input_not_utf8', 'c3', 'at byte 3');
    assert.match(message, /^Protocol error: /);
  });

  test('not JSON: the raw text, unchanged (line endings and trailing newline kept)', () => {
    const text = 'Fix the failing test\r\nin parser.rs.\n';
    assert.deepEqual(promptForRun(perRun('repo'), bytes(text), none), { ok: true, prompt: text });
  });

  test('not JSON, with a UTF-8 BOM: the text without the BOM', () => {
    assert.deepEqual(promptForRun({ fixed: '/srv' }, bytes('\uFEFFsay hi'), none), { ok: true, prompt: 'say hi' });
  });

  test('a JSON string: the inner string, escapes decoded', () => {
    assert.deepEqual(promptForRun(perRun('repo'), bytes('"Make the parser accept \\"ISO\\" weeks.\\n"'), none), {
      ok: true,
      prompt: 'Make the parser accept "ISO" weeks.\n',
    });
  });

  test("spec B.3's input: the one field left once repo_dir is removed is the task", () => {
    const input = json({ repo_dir: '/srv/aion/clones/run-7/repo', task: 'Make the date parser accept ISO weeks.' });
    assert.deepEqual(promptForRun(perRun('repo_dir'), input, none), { ok: true, prompt: 'Make the date parser accept ISO weeks.' });
  });

  test('reserved names are removed too; the field left may have any name', () => {
    const input = json({ repo_dir: '/srv/r', session_key: 'k-1', workflow_id: 'w', instructions: 'Do it.' });
    assert.deepEqual(promptForRun(perRun('repo_dir'), input, ['session_key', 'workflow_id']), { ok: true, prompt: 'Do it.' });
  });

  test('none left: refused, listing the fields that arrived and what was removed', () => {
    refused(
      promptForRun(perRun('repo_dir'), json({ repo_dir: '/srv/r', session_key: 'k' }), ['session_key']),
      'prompt_none',
      'no field left',
      '"repo_dir", "session_key"',
    );
  });

  test('an empty object: refused, fields that arrived: none', () => {
    refused(promptForRun({ fixed: '/srv' }, json({}), none), 'prompt_none', 'fields that arrived: none');
  });

  test('several left: refused, naming them and the fields that arrived; one reserved more and it is accepted', () => {
    const input = json({ repo_dir: '/srv/r', task: 'a', notes: 'b' });
    refused(promptForRun(perRun('repo_dir'), input, none), 'prompt_several', '2 fields left', '"task", "notes"', '"repo_dir", "task", "notes"');
    assert.deepEqual(promptForRun(perRun('repo_dir'), input, ['notes']), { ok: true, prompt: 'a' });
  });

  test('with a fixed directory the directory parameter is not removed: it is one more field', () => {
    refused(promptForRun({ fixed: '/srv' }, json({ repo_dir: '/srv/r', task: 'a' }), none), 'prompt_several', '"repo_dir", "task"');
  });

  for (const [value, kind] of [
    [null, 'null'],
    [true, 'a boolean'],
    [3, 'a number'],
    [['a', 'b'], 'a list'],
    [{ text: 'a' }, 'an object'],
  ] as const) {
    test(`the one field left as ${kind}: refused as not text, saying which kind`, () => {
      refused(promptForRun(perRun('repo'), json({ repo: '/srv', task: value }), none), 'prompt_not_text', 'task field "task" as ' + kind, 'not text');
    });
  }

  for (const raw of ['42', ' true\n', 'null', '[1, "two"]\r\n', '-0.5e3']) {
    test(`any other JSON value (${JSON.stringify(raw)}): the raw JSON text as it arrived`, () => {
      assert.deepEqual(promptForRun(perRun('repo'), bytes(raw), none), { ok: true, prompt: raw });
    });
  }

  test('an empty input is not JSON: the empty text', () => {
    assert.deepEqual(promptForRun({ fixed: '/srv' }, new Uint8Array(), none), { ok: true, prompt: '' });
  });
});
