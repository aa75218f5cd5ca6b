// funnelEdits: byte-for-byte outputs of addBoundaryVariant on small funnels (LF and CRLF, with and without doc
// comments and `ALL`, trailing-comma and one-line variations, attributes, `BoundaryId::` arms, traps in comments
// and strings), its refusals, idempotence, and the real funnel when the corpus is present.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { addBoundaryVariant, boundaryVariantName } from '../../server/src/boundaries/funnelEdits';
import { applyEdits, TextEdit } from '../../server/src/boundaries/registryEdits';
import { lexRust, parseFunnel } from '../../server/src/boundaries/rust';
import { defined } from '../support/assertions';
import { corpusSkip, readCorpus } from '../support/corpus';

const EOLS: [string, string][] = [
  ['LF', '\n'],
  ['CRLF', '\r\n'],
];

const lines = (eol: string, ...ls: string[]): string => ls.join(eol);

const arms = (text: string): string[] => parseFunnel(text).arms.map((a) => `${a.variant} => ${a.wire}`);
const variants = (text: string): string[] => parseFunnel(text).enumVariants.map((v) => v.name);

function edit(text: string, wire: string, doc?: string): TextEdit[] {
  return addBoundaryVariant(text, parseFunnel(text), wire, doc);
}

/**
 * Adds `wire` to `text`, checks the output byte for byte, that the funnel re-read is the old one plus exactly
 * the new arm and variant, that the edits do not overlap and touch the original text only where they must,
 * and that a second run does nothing.
 */
function expectAdded(text: string, wire: string, expected: string, doc?: string): void {
  const edits = edit(text, wire, doc);
  const out = applyEdits(text, edits);
  assert.equal(out, expected);
  const name = defined(boundaryVariantName(wire), `the variant name of ${wire}`);
  assert.deepEqual(
    arms(out).filter((a) => a !== `${name} => ${wire}`),
    arms(text),
  );
  assert.equal(arms(out).filter((a) => a === `${name} => ${wire}`).length, 1);
  assert.deepEqual(variants(out), [...variants(text), name]);
  assert.deepEqual(edit(out, wire, doc), [], 'adding it again does nothing');
}

function expectRefused(text: string, wire: string, why: string): void {
  assert.deepEqual(edit(text, wire), [], why);
}

/** A demo-like funnel: documented variants, no ALL, a trait impl and another enum after it. */
function documented(eol: string): string {
  return lines(
    eol,
    '//! The funnel.',
    '',
    '/// Places where model output can be lost.',
    '#[derive(Clone, Copy, Debug)]',
    'pub enum BoundaryId {',
    '    /// Provider response blocks.',
    '    ResponseContentExtraction,',
    '    /// The turn cap.',
    '    ChatTurnCap,',
    '}',
    '',
    'impl BoundaryId {',
    "    pub fn as_str(self) -> &'static str {",
    '        match self {',
    '            Self::ResponseContentExtraction => "response_content_extraction",',
    '            Self::ChatTurnCap => "chat_turn_cap",',
    '        }',
    '    }',
    '}',
    '',
    'impl std::fmt::Display for BoundaryId {',
    "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {",
    '        f.write_str(self.as_str())',
    '    }',
    '}',
    '',
  );
}

/** Undocumented variants, tab indentation, `ALL`, and a second enum with its own `ALL` and `as_str`. */
function withAll(eol: string): string {
  return lines(
    eol,
    'pub enum BoundaryId {',
    '\tTextToolParse,',
    '\tChatTurnCap,',
    '}',
    '',
    'impl BoundaryId {',
    '\tpub const ALL: [Self; 2] = [',
    '\t\tSelf::TextToolParse,',
    '\t\tSelf::ChatTurnCap,',
    '\t];',
    '',
    "\tpub fn as_str(self) -> &'static str {",
    '\t\tmatch self {',
    '\t\t\tSelf::TextToolParse => "text_tool_parse",',
    '\t\t\tSelf::ChatTurnCap => "chat_turn_cap",',
    '\t\t}',
    '\t}',
    '}',
    '',
    'pub enum BoundaryFailureKind {',
    '\tDropped,',
    '}',
    '',
    'impl BoundaryFailureKind {',
    '\tpub const ALL: [Self; 1] = [Self::Dropped];',
    '',
    "\tpub fn as_str(self) -> &'static str {",
    '\t\tmatch self {',
    '\t\t\tSelf::Dropped => "dropped",',
    '\t\t}',
    '\t}',
    '}',
    '',
  );
}

describe('boundaryVariantName', () => {
  test('PascalCase of a snake_case id; undefined when that is no plain identifier', () => {
    assert.equal(boundaryVariantName('chat_turn_cap'), 'ChatTurnCap');
    assert.equal(boundaryVariantName('http2_ingest'), 'Http2Ingest');
    assert.equal(boundaryVariantName('x'), 'X');
    assert.equal(boundaryVariantName('_lead__double_'), 'LeadDouble');
    for (const bad of ['', '_', '2fa_gate', 'chat-turn-cap', 'chat turn', 'ü_gate', 'self', 'a"b']) assert.equal(boundaryVariantName(bad), undefined, bad);
  });
});

describe('addBoundaryVariant', () => {
  for (const [name, eol] of EOLS) {
    test(`${name}: documented variants get a TODO doc line; the arm goes after the last one; no ALL`, () => {
      expectAdded(
        documented(eol),
        'tool_arg_parse',
        lines(
          eol,
          '//! The funnel.',
          '',
          '/// Places where model output can be lost.',
          '#[derive(Clone, Copy, Debug)]',
          'pub enum BoundaryId {',
          '    /// Provider response blocks.',
          '    ResponseContentExtraction,',
          '    /// The turn cap.',
          '    ChatTurnCap,',
          '    /// TODO: describe this boundary',
          '    ToolArgParse,',
          '}',
          '',
          'impl BoundaryId {',
          "    pub fn as_str(self) -> &'static str {",
          '        match self {',
          '            Self::ResponseContentExtraction => "response_content_extraction",',
          '            Self::ChatTurnCap => "chat_turn_cap",',
          '            Self::ToolArgParse => "tool_arg_parse",',
          '        }',
          '    }',
          '}',
          '',
          'impl std::fmt::Display for BoundaryId {',
          "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {",
          '        f.write_str(self.as_str())',
          '    }',
          '}',
          '',
        ),
      );
    });

    test(`${name}: undocumented variants get none; ALL grows by one and its length with it; the other enum is left alone`, () => {
      const text = withAll(eol);
      const expected = text
        .replace(`\tChatTurnCap,${eol}}`, `\tChatTurnCap,${eol}\tToolArgParse,${eol}}`)
        .replace('[Self; 2]', '[Self; 3]')
        .replace(`\t\tSelf::ChatTurnCap,${eol}\t];`, `\t\tSelf::ChatTurnCap,${eol}\t\tSelf::ToolArgParse,${eol}\t];`)
        .replace(`"chat_turn_cap",${eol}`, `"chat_turn_cap",${eol}\t\t\tSelf::ToolArgParse => "tool_arg_parse",${eol}`);
      assert.notEqual(expected, text);
      expectAdded(text, 'tool_arg_parse', expected);
    });
  }

  test('an explicit doc text, over several lines', () => {
    const text = documented('\n');
    const out = applyEdits(text, edit(text, 'tool_arg_parse', 'Tool-call argument parsing.\n\nDrops bad JSON.  '));
    assert.ok(out.includes('    ChatTurnCap,\n    /// Tool-call argument parsing.\n    ///\n    /// Drops bad JSON.\n    ToolArgParse,\n}'), out);
    // Blank: the TODO.
    assert.ok(applyEdits(text, edit(text, 'tool_arg_parse', '  ')).includes('    /// TODO: describe this boundary\n    ToolArgParse,\n}'));
  });

  test('trailing commas missing on the last variant, arm and ALL element: added, and the new ones get one', () => {
    const text = lines(
      '\n',
      'pub enum BoundaryId {',
      '    A,',
      '    B',
      '}',
      'impl BoundaryId {',
      '    pub const ALL: [Self; 2] = [',
      '        Self::A,',
      '        Self::B',
      '    ];',
      "    pub fn as_str(self) -> &'static str {",
      '        match self {',
      '            Self::A => "a",',
      '            Self::B => "b"',
      '        }',
      '    }',
      '}',
      '',
    );
    expectAdded(
      text,
      'c',
      lines(
        '\n',
        'pub enum BoundaryId {',
        '    A,',
        '    B,',
        '    C,',
        '}',
        'impl BoundaryId {',
        '    pub const ALL: [Self; 3] = [',
        '        Self::A,',
        '        Self::B,',
        '        Self::C,',
        '    ];',
        "    pub fn as_str(self) -> &'static str {",
        '        match self {',
        '            Self::A => "a",',
        '            Self::B => "b",',
        '            Self::C => "c",',
        '        }',
        '    }',
        '}',
        '',
      ),
    );
  });

  test('one-line lists stay on one line, with or without a trailing comma', () => {
    const text = lines(
      '\r\n',
      'pub enum BoundaryId { A, B }',
      'impl BoundaryId {',
      '    pub const ALL: [BoundaryId; 2] = [BoundaryId::A, BoundaryId::B,];',
      "    pub fn as_str(self) -> &'static str {",
      '        match self { Self::A => "a", Self::B => "b", }',
      '    }',
      '}',
    );
    expectAdded(
      text,
      'c',
      lines(
        '\r\n',
        'pub enum BoundaryId { A, B, C }',
        'impl BoundaryId {',
        '    pub const ALL: [BoundaryId; 3] = [BoundaryId::A, BoundaryId::B, BoundaryId::C,];',
        "    pub fn as_str(self) -> &'static str {",
        '        match self { Self::A => "a", Self::B => "b", Self::C => "c", }',
        '    }',
        '}',
      ),
    );
  });

  test('an enum with attributes, attributes on variants, `BoundaryId::` arms and trailing comments', () => {
    const text = lines(
      '\n',
      '#[derive(Clone, Copy, Debug, Eq, PartialEq, Hash, Serialize, Deserialize)]',
      '#[serde(rename_all = "snake_case")]',
      '#[non_exhaustive]',
      'pub enum BoundaryId {',
      '    #[serde(alias = "tool_parse")]',
      '    TextToolParse,',
      '    #[doc = "The turn cap."]',
      '    ChatTurnCap, // the last one',
      '}',
      '',
      'impl BoundaryId {',
      '    pub const ALL: [Self; 2] = [Self::TextToolParse, Self::ChatTurnCap];',
      '',
      "    pub const fn as_str(self) -> &'static str {",
      '        match self {',
      '            BoundaryId::TextToolParse => "text_tool_parse",',
      '            #[allow(unreachable_patterns)]',
      '            BoundaryId::ChatTurnCap => "chat_turn_cap", // keep last',
      '        }',
      '    }',
      '}',
      '',
    );
    expectAdded(
      text,
      'host_event_ingest',
      lines(
        '\n',
        '#[derive(Clone, Copy, Debug, Eq, PartialEq, Hash, Serialize, Deserialize)]',
        '#[serde(rename_all = "snake_case")]',
        '#[non_exhaustive]',
        'pub enum BoundaryId {',
        '    #[serde(alias = "tool_parse")]',
        '    TextToolParse,',
        '    #[doc = "The turn cap."]',
        '    ChatTurnCap, // the last one',
        '    /// TODO: describe this boundary',
        '    HostEventIngest,',
        '}',
        '',
        'impl BoundaryId {',
        '    pub const ALL: [Self; 3] = [Self::TextToolParse, Self::ChatTurnCap, Self::HostEventIngest];',
        '',
        "    pub const fn as_str(self) -> &'static str {",
        '        match self {',
        '            BoundaryId::TextToolParse => "text_tool_parse",',
        '            #[allow(unreachable_patterns)]',
        '            BoundaryId::ChatTurnCap => "chat_turn_cap", // keep last',
        '            BoundaryId::HostEventIngest => "host_event_ingest",',
        '        }',
        '    }',
        '}',
        '',
      ),
    );
  });

  test('look-alikes in comments and strings are not the enum, the impl or ALL', () => {
    const text = lines(
      '\n',
      '/* pub enum BoundaryId { Fake, }',
      '   impl BoundaryId { pub const ALL: [Self; 9] = [Self::Fake]; } */',
      'const NOTE: &str = "impl BoundaryId { fn as_str(self) { match self { Self::Fake => \\"fake\\", } } }";',
      '// pub enum BoundaryId { Fake }',
      'pub enum BoundaryId {',
      '    A, // Self::Z => "z",',
      '}',
      'impl BoundaryId {',
      "    pub fn as_str(self) -> &'static str {",
      '        match self {',
      '            Self::A => "a", /* } */',
      '        }',
      '    }',
      '    fn label(self) -> &\'static str { r#"pub const ALL: [Self; 1] = [Self::A];"# }',
      '}',
      '',
    );
    expectAdded(
      text,
      'b',
      text
        .replace('    A, // Self::Z => "z",\n', '    A, // Self::Z => "z",\n    B,\n')
        .replace('            Self::A => "a", /* } */\n', '            Self::A => "a", /* } */\n            Self::B => "b",\n'),
    );
  });

  test('an arm whose right-hand side is no literal is no funnel arm: the new arm follows the last one that is', () => {
    const text = lines(
      '\n',
      'pub enum BoundaryId {',
      '    A,',
      '    B,',
      '}',
      'impl BoundaryId {',
      "    pub fn as_str(self) -> &'static str {",
      '        match self {',
      '            Self::A => "a",',
      '            Self::B => match 1 { _ => "b" },',
      '        }',
      '    }',
      '}',
      '',
    );
    // parseFunnel reads only `a` here (b's right-hand side is no literal): the new arm goes after it, and the variant is new.
    expectAdded(
      text,
      'c',
      text.replace('    B,\n}', '    B,\n    C,\n}').replace('            Self::A => "a",\n', '            Self::A => "a",\n            Self::C => "c",\n'),
    );
  });

  test('refusals: already there, a clash, and whatever cannot be found unambiguously', () => {
    const base = withAll('\n');
    expectRefused(base, 'chat_turn_cap', 'the id has an arm');
    expectRefused(base.replace('\tChatTurnCap,\n}', '\tChatTurnCap,\n\tToolArgParse,\n}'), 'tool_arg_parse', 'the variant exists without an arm');
    expectRefused(base.replace('"chat_turn_cap"', '"chat_cap"'), 'chat_turn_cap', 'the variant maps to another id');
    for (const bad of ['tool-arg', '9lives', 'self', '']) expectRefused(base, bad, `no variant name for ${JSON.stringify(bad)}`);
    expectRefused(base.replace('[Self; 2]', '[Self; 3]'), 'tool_arg_parse', 'ALL has a length other than its elements');
    expectRefused(base.replace('pub const ALL: [Self; 2] = [', 'pub const ALL: &[Self] = &['), 'tool_arg_parse', 'ALL is a slice');
    expectRefused(base + '#[cfg(test)]\npub enum BoundaryId { X }\n', 'tool_arg_parse', 'two enums');
    expectRefused(base.replace('as_str', 'wire'), 'tool_arg_parse', 'no as_str');
    expectRefused(base + 'impl BoundaryId {\n\tpub fn as_str(&self) -> &str { "" }\n}\n', 'tool_arg_parse', 'two as_str');
    expectRefused(base + '/* unterminated', 'tool_arg_parse', 'an unterminated comment');
    expectRefused('pub enum BoundaryId { A }\n', 'b', 'no arms');
    expectRefused(
      base.replace('\t\t\tSelf::ChatTurnCap => "chat_turn_cap",', '\t\t\tSelf::ChatTurnCap => match self { Self::ChatTurnCap => "chat_turn_cap", _ => "" },'),
      'tool_arg_parse',
      'the last arm read is in a nested match',
    );
    expectRefused('', 'b', 'empty');
    // A line going on into a block comment after the last variant.
    expectRefused(base.replace('\tChatTurnCap,\n}', '\tChatTurnCap, /* one\n\tmore */\n}'), 'tool_arg_parse', 'a block comment across the line end');
    // A funnel that is not that of the text.
    assert.deepEqual(addBoundaryVariant(base, parseFunnel(documented('\n')), 'tool_arg_parse'), []);
    assert.deepEqual(addBoundaryVariant(base, { arms: [], enumVariants: [] }, 'tool_arg_parse'), []);
  });

  test('several ids in turn: each adds exactly one arm, variant and ALL element', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
    const id = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join('_'));
    fc.assert(
      fc.property(fc.constantFrom('\n', '\r\n'), fc.uniqueArray(id, { minLength: 1, maxLength: 6 }), (eol, ids) => {
        let text = withAll(eol);
        const names = new Set(variants(text));
        for (const wire of ids) {
          const name = defined(boundaryVariantName(wire), `the variant name of ${wire}`);
          const edits = edit(text, wire);
          if (names.has(name) || ['text_tool_parse', 'chat_turn_cap'].includes(wire)) {
            assert.deepEqual(edits, []);
            continue;
          }
          const out = applyEdits(text, edits);
          assert.deepEqual(
            arms(out).filter((a) => a !== `${name} => ${wire}`),
            arms(text),
          );
          assert.deepEqual(variants(out), [...variants(text), name]);
          assert.ok(out.includes(`pub const ALL: [Self; ${names.size + 1}] = [`));
          // Only the line ending of the file is used.
          assert.equal(out.split('\r\n').length - 1, eol === '\r\n' ? out.split('\n').length - 1 : 0);
          assert.ok(!lexRust(out).some((t) => t.unterminated));
          names.add(name);
          text = out;
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('addBoundaryVariant on the real funnel', { skip: corpusSkip }, () => {
  const FUNNEL = 'harn-0.10/crates/harn-vm/src/boundary.rs';
  const read = (): string => readCorpus(FUNNEL);

  for (const [name, eol] of EOLS) {
    test(`${name}: a seventh boundary — variant, ALL ([Self; 7], 7 elements) and as_str; idempotent`, () => {
      const text = read().replace(/\r?\n/g, eol);
      assert.equal(parseFunnel(text).arms.length, 6);
      const expected = text
        .replace(
          `    /// \`agent_chat_loop\` turn/input caps: the loop stops mid-conversation.${eol}    ChatTurnCap,${eol}}`,
          `    /// \`agent_chat_loop\` turn/input caps: the loop stops mid-conversation.${eol}    ChatTurnCap,${eol}    /// Tool-call argument parsing.${eol}    ToolArgParse,${eol}}`,
        )
        .replace('pub const ALL: [Self; 6] = [', 'pub const ALL: [Self; 7] = [')
        .replace(`        Self::ChatTurnCap,${eol}    ];`, `        Self::ChatTurnCap,${eol}        Self::ToolArgParse,${eol}    ];`)
        .replace(
          `            Self::ChatTurnCap => "chat_turn_cap",${eol}`,
          `            Self::ChatTurnCap => "chat_turn_cap",${eol}            Self::ToolArgParse => "tool_arg_parse",${eol}`,
        );
      expectAdded(text, 'tool_arg_parse', expected, 'Tool-call argument parsing.');

      const funnel = parseFunnel(expected);
      assert.equal(funnel.arms.length, 7);
      assert.equal(funnel.enumVariants.length, 7);
      const all = /pub const ALL: \[Self; (\d+)\] = \[([^\]]*)\];/.exec(expected);
      assert.ok(all);
      assert.equal(all[1], '7');
      assert.deepEqual(
        defined(all[2], 'the ALL elements')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        ['TextToolParse', 'ResponseContentExtraction', 'VisibleTextSanitize', 'HostEventIngest', 'ProviderAdmissionGate', 'ChatTurnCap', 'ToolArgParse'].map(
          (v) => `Self::${v}`,
        ),
      );
      // BoundaryFailureKind's ALL and as_str are untouched.
      assert.ok(expected.includes('pub const ALL: [Self; 5] = ['));
      assert.ok(expected.includes(`            Self::Capped => "capped",${eol}        }`));
      // Every registered id is already there.
      for (const arm of funnel.arms) assert.deepEqual(edit(expected, arm.wire), []);
    });
  }
});
