// Reading Rust for the loud-boundary gate (spec/harn-artifacts.md §6): the lexer's notion of code versus
// comments and literals, `BoundaryId::X` mentions, the funnel's arms and enum variants, exempt site
// paths — against the real funnel when the corpus is present, synthetic traps, upstream's text rules
// (as oracles written here) and random token soups.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defined } from '../support/assertions';
import { corpusSkip, readCorpus } from '../support/corpus';
import { isExemptSitePath, lexRust, parseFunnel, rustTokenAt, scanRustMentions } from '../../server/src/boundaries/rust';
import type { TextRange } from '../../server/src/boundaries/types';

const FUNNEL = 'harn-0.10/crates/harn-vm/src/boundary.rs';

const EXPECTED_WIRES: Record<string, string> = {
  TextToolParse: 'text_tool_parse',
  ResponseContentExtraction: 'response_content_extraction',
  VisibleTextSanitize: 'visible_text_sanitize',
  HostEventIngest: 'host_event_ingest',
  ProviderAdmissionGate: 'provider_admission_gate',
  ChatTurnCap: 'chat_turn_cap',
};
const VARIANTS = Object.keys(EXPECTED_WIRES);

function readFunnel(): string {
  return readCorpus(FUNNEL);
}

const slice = (text: string, range: TextRange): string => text.slice(range.start, range.end);

/** The variants mentioned, in order. */
function mentioned(text: string): string[] {
  return scanRustMentions(text).map((m) => m.variant);
}

function wireMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arm of parseFunnel(text).arms) out[arm.variant] = arm.wire;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Oracles: upstream's text rules from scripts/check_loud_boundaries.harn, transcribed.

/** `boundary_wire_strings`: cut at the first "\n}\n" after `impl BoundaryId {`, then line by line. */
function upstreamWireStrings(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  const implStart = source.indexOf('impl BoundaryId {');
  if (implStart < 0) return out;
  const rest = source.slice(implStart);
  const end = rest.indexOf('\n}\n');
  const body = end < 0 ? rest : rest.slice(0, end);
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line.startsWith('Self::') || !line.includes('=>')) continue;
    const [left, right, ...more] = line.split('=>');
    if (left === undefined || right === undefined || more.length) continue;
    const variant = left.trim().slice('Self::'.length).trim();
    let wire = right.trim();
    if (wire.endsWith(',')) wire = wire.slice(0, -1).trim();
    if (!wire.startsWith('"') || !wire.endsWith('"') || wire.length < 2) continue;
    out[variant] = wire.slice(1, -1);
  }
  return out;
}

/** `rust_sites` for one source line, as `git grep -n` prints it: the variants it counts. */
function upstreamSiteVariants(content: string, variants: string[]): string[] {
  const line = `crates/x/src/lib.rs:7:${content}`.trim();
  const body = line.slice(line.indexOf(':') + 1);
  return variants.filter(
    (v) =>
      body.includes(`BoundaryId::${v},`) ||
      body.includes(`BoundaryId::${v})`) ||
      body.includes(`BoundaryId::${v};`) ||
      body.includes(`BoundaryId::${v} `) ||
      body.endsWith(`BoundaryId::${v}`),
  );
}

/** Our variants for the same line, in the oracle's order (known variants only, deduplicated). */
function ourSiteVariants(content: string, variants: string[]): string[] {
  const found = new Set(mentioned(content));
  return variants.filter((v) => found.has(v));
}

// ---------------------------------------------------------------------------------------------------

describe('rust: the real funnel (boundary.rs)', { skip: corpusSkip }, () => {
  test('six arms with the exact variant → wire map, ranges slicing to the variant and the literal', () => {
    const text = readFunnel();
    const { arms } = parseFunnel(text);
    assert.equal(arms.length, 6);
    assert.deepEqual(wireMap(text), EXPECTED_WIRES);
    for (const arm of arms) {
      assert.equal(slice(text, arm.variantRange), arm.variant);
      assert.equal(slice(text, arm.wireRange), JSON.stringify(arm.wire));
      // The arm really is `Self::Variant => "wire"` in the source.
      assert.match(text.slice(arm.variantRange.start - 6, arm.wireRange.end), /^Self::\w+ => "\w+"$/);
    }
  });

  test('agrees with upstream boundary_wire_strings on the real funnel', () => {
    const text = readFunnel();
    assert.deepEqual(wireMap(text), upstreamWireStrings(text));
  });

  test('six enum variants in declaration order, skipping doc comments and attributes', () => {
    const text = readFunnel();
    const { enumVariants } = parseFunnel(text);
    assert.deepEqual(
      enumVariants.map((v) => v.name),
      VARIANTS,
    );
    for (const v of enumVariants) assert.equal(slice(text, v.range), v.name);
    // Not `BoundaryFailureKind`'s variants.
    assert.ok(!enumVariants.some((v) => v.name === 'Dropped'));
  });

  test('no mentions in the funnel, not even from its //! and /// doc comments', () => {
    const text = readFunnel();
    assert.deepEqual(scanRustMentions(text), []);
    // Plant a mention in every doc comment line: still none.
    const planted = text.replace(/^(\s*\/\/[!/].*)$/gm, '$1 BoundaryId::ChatTurnCap, BoundaryId::TextToolParse)');
    assert.equal(text.match(/^(\s*\/\/[!/].*)$/gm)?.length, 119, "the funnel's doc-comment lines");
    assert.deepEqual(scanRustMentions(planted), []);
    assert.deepEqual(parseFunnel(planted).arms.length, 6);
  });

  test('a mention added in code is found at its offset, and the funnel still parses', () => {
    const text = readFunnel() + '\nfn default_boundary() -> BoundaryId {\n    BoundaryId::ChatTurnCap\n}\n';
    const mentions = scanRustMentions(text);
    assert.equal(mentions.length, 1);
    const mention = defined(mentions[0], 'the mention');
    assert.equal(mention.variant, 'ChatTurnCap');
    assert.equal(mention.range.start, text.lastIndexOf('ChatTurnCap'));
    assert.equal(slice(text, mention.range), 'ChatTurnCap');
  });

  test('CRLF and a BOM do not change what is read, and ranges still slice right', () => {
    const text = '\uFEFF' + readFunnel().replace(/\n/g, '\r\n');
    const funnel = parseFunnel(text);
    assert.deepEqual(wireMap(text), EXPECTED_WIRES);
    for (const arm of funnel.arms) assert.equal(slice(text, arm.variantRange), arm.variant);
    assert.equal(funnel.enumVariants.length, 6);
    assert.deepEqual(scanRustMentions(text), []);
  });
});

describe('rust: mentions ignore every kind of comment and literal', () => {
  const hidden: Array<[string, string]> = [
    ['line comment', '// BoundaryId::ChatTurnCap,'],
    ['outer doc comment', '/// see BoundaryId::ChatTurnCap'],
    ['inner doc comment', '//! BoundaryId::ChatTurnCap'],
    ['block comment', '/* BoundaryId::ChatTurnCap */'],
    ['block doc comment', '/** BoundaryId::ChatTurnCap */'],
    ['nested block comment', '/* outer /* inner */ BoundaryId::ChatTurnCap */'],
    ['deeply nested block comment', '/* /* /* */ */ BoundaryId::ChatTurnCap /* */ */'],
    ['block comment opened by /*/', '/*/ BoundaryId::ChatTurnCap */'],
    ['string', '"BoundaryId::ChatTurnCap"'],
    ['string with an escaped quote', '"say \\" BoundaryId::ChatTurnCap \\""'],
    ['string ending in an escaped backslash, then a string', '"\\\\" "BoundaryId::ChatTurnCap"'],
    ['multi-line string', '"first\n  BoundaryId::ChatTurnCap,\n"'],
    ['byte string', 'b"BoundaryId::ChatTurnCap"'],
    ['C string', 'c"BoundaryId::ChatTurnCap"'],
    ['raw string', 'r"BoundaryId::ChatTurnCap\\"'],
    ['raw string with #', 'r#"a "quoted" BoundaryId::ChatTurnCap"#'],
    ['raw string whose body holds "#', 'r##"x "# BoundaryId::ChatTurnCap"##'],
    ['raw byte string', 'br##"BoundaryId::ChatTurnCap"##'],
    ['raw C string', 'cr#"BoundaryId::ChatTurnCap"#'],
    ['// inside a string does not start a comment', '"http://x" /* BoundaryId::ChatTurnCap */'],
    ['unterminated string', '"BoundaryId::ChatTurnCap'],
    ['unterminated block comment', '/* /* */ BoundaryId::ChatTurnCap'],
    ['shebang line', '#!/usr/bin/env run-cargo-script BoundaryId::ChatTurnCap'],
  ];
  for (const [name, source] of hidden) {
    test(`ignored: ${name}`, () => {
      assert.deepEqual(mentioned(source), []);
      // In a function body too (a shebang is only one on the first line).
      if (!source.startsWith('#!')) assert.deepEqual(mentioned(`fn f() {\n    let _ = ${source}\n}`), []);
    });
  }

  const found: Array<[string, string]> = [
    ['after a string containing //', 'let u = "http://example.com"; BoundaryId::ChatTurnCap'],
    ['after a string containing /*', 'let u = "/*"; BoundaryId::ChatTurnCap'],
    ['after a quote inside a comment', '/* " */ BoundaryId::ChatTurnCap'],
    ['after a quote inside a line comment', '// don\'t "\nBoundaryId::ChatTurnCap'],
    ['after a char literal holding a quote', "let q = '\"'; BoundaryId::ChatTurnCap"],
    ['after an escaped-quote char literal', "let q = '\\''; BoundaryId::ChatTurnCap"],
    ['after a newline char literal', "let q = '\\n'; BoundaryId::ChatTurnCap"],
    ['after a unicode char literal', "let q = '\\u{1F600}'; BoundaryId::ChatTurnCap"],
    ['after an emoji char literal', "let q = '😀'; BoundaryId::ChatTurnCap"],
    ['after a byte char literal', "let q = b'\\''; BoundaryId::ChatTurnCap"],
    ['after a raw string with #s', 'let s = r##"a "# b"##; BoundaryId::ChatTurnCap'],
    ['after a raw string holding a backslash', 'let s = r"\\"; BoundaryId::ChatTurnCap'],
    ['after a shebang', '#!/usr/bin/env x\nBoundaryId::ChatTurnCap'],
    ['after an inner attribute', '#![allow(dead_code)] BoundaryId::ChatTurnCap'],
    ['in a macro call', 'assert_eq!(failure.boundary(), BoundaryId::ChatTurnCap);'],
  ];
  for (const [name, source] of found) {
    test(`found: ${name}`, () => {
      const mentions = scanRustMentions(source);
      assert.deepEqual(
        mentions.map((m) => m.variant),
        ['ChatTurnCap'],
      );
      const mention = defined(mentions[0], 'the mention');
      assert.equal(mention.range.start, source.lastIndexOf('ChatTurnCap'));
      assert.equal(slice(source, mention.range), 'ChatTurnCap');
    });
  }
});

describe('rust: lifetimes and labels are not char literals', () => {
  test("a lifetime 'a before a mention does not swallow it", () => {
    // A lexer that read `'a>(x: &'` as a char literal would then swallow the mention.
    const source = "fn f<'a>(x: &'a T, y: BoundaryId::ChatTurnCap, z: &'a T) {}";
    assert.deepEqual(mentioned(source), ['ChatTurnCap']);
  });

  test("'static, labels and raw lifetimes", () => {
    const source = [
      "fn name(self) -> &'static str { BoundaryId::TextToolParse.as_str() }",
      "'outer: loop { break 'outer; } let b = BoundaryId::ChatTurnCap;",
      "fn g<'r#fn>(x: &'r#fn u8) { BoundaryId::HostEventIngest }",
    ].join('\n');
    assert.deepEqual(mentioned(source), ['TextToolParse', 'ChatTurnCap', 'HostEventIngest']);
    const lifetimes = lexRust(source)
      .filter((t) => t.kind === 'lifetime')
      .map((t) => t.value);
    assert.deepEqual(lifetimes, ["'static", "'outer", "'outer", "'r#fn", "'r#fn"]);
  });

  test('char literals versus lifetimes, token by token', () => {
    const kinds = (source: string): string[] => lexRust(source).map((t) => `${t.kind}:${t.value}`);
    assert.deepEqual(kinds("'a'"), ["char:'a'"]);
    assert.deepEqual(kinds("'a"), ["lifetime:'a"]);
    assert.deepEqual(kinds("'\\''"), ["char:'\\''"]);
    assert.deepEqual(kinds("'\\\\'"), ["char:'\\\\'"]);
    assert.deepEqual(kinds("'\\u{1F600}'"), ["char:'\\u{1F600}'"]);
    assert.deepEqual(kinds("'😀'"), ["char:'😀'"]);
    assert.deepEqual(kinds("'中'"), ["char:'中'"]);
    assert.deepEqual(kinds("'\"'"), ["char:'\"'"]);
    assert.deepEqual(kinds("'{' '}'"), ["char:'{'", "char:'}'"]);
    assert.deepEqual(kinds("&'a str"), ['punct:&', "lifetime:'a", 'ident:str']);
    assert.deepEqual(kinds("'label: {}"), ["lifetime:'label", 'punct::', 'punct:{', 'punct:}']);
  });
});

describe('rust: mention paths', () => {
  test('whitespace, newlines and comments around ::, as Rust allows', () => {
    assert.deepEqual(mentioned('BoundaryId :: ChatTurnCap'), ['ChatTurnCap']);
    assert.deepEqual(mentioned('BoundaryId\n    ::ChatTurnCap'), ['ChatTurnCap']);
    assert.deepEqual(mentioned('BoundaryId::\r\n\tChatTurnCap'), ['ChatTurnCap']);
    assert.deepEqual(mentioned('BoundaryId /* why */ :: // because\n ChatTurnCap'), ['ChatTurnCap']);
  });

  test('qualified paths', () => {
    const source = 'crate::boundary::BoundaryId::TextToolParse, boundary::BoundaryId::ChatTurnCap, ::harn_vm::boundary::BoundaryId::HostEventIngest';
    const mentions = scanRustMentions(source);
    assert.deepEqual(
      mentions.map((m) => m.variant),
      ['TextToolParse', 'ChatTurnCap', 'HostEventIngest'],
    );
    for (const m of mentions) assert.equal(slice(source, m.range), m.variant);
  });

  test('only the BoundaryId identifier itself, and only a real :: separator', () => {
    assert.deepEqual(mentioned('MyBoundaryId::ChatTurnCap, BoundaryIds::ChatTurnCap, boundaryid::ChatTurnCap'), []);
    assert.deepEqual(mentioned('BoundaryId: :ChatTurnCap BoundaryId:ChatTurnCap BoundaryId.ChatTurnCap'), []);
    assert.deepEqual(mentioned('let x: BoundaryId = y;'), []);
  });

  test('every name is kept; the caller decides which are variants', () => {
    assert.deepEqual(mentioned('BoundaryId::ALL.iter(); BoundaryId::as_str(b); BoundaryId::Chat'), ['ALL', 'as_str', 'Chat']);
    assert.deepEqual(mentioned('BoundaryId::ChatTurnCapX'), ['ChatTurnCapX']);
  });

  test('use groups name their variants', () => {
    const source = 'use crate::boundary::BoundaryId::{self, ChatTurnCap, TextToolParse as Ttp, /* HostEventIngest */};';
    const mentions = scanRustMentions(source);
    assert.deepEqual(
      mentions.map((m) => m.variant),
      ['self', 'ChatTurnCap', 'TextToolParse'],
    );
    for (const m of mentions) assert.equal(slice(source, m.range), m.variant);
  });

  test('raw identifiers: the range is the name without r#', () => {
    const source = 'r#BoundaryId::r#ChatTurnCap';
    const mentions = scanRustMentions(source);
    assert.deepEqual(
      mentions.map((m) => [m.variant, slice(source, m.range)]),
      [['ChatTurnCap', 'ChatTurnCap']],
    );
  });

  test('UTF-16 offsets with a BOM, CRLF, emoji and CJK before the mention', () => {
    const source = '\uFEFF// 😀 中文 BoundaryId::TextToolParse\r\nlet s = "😀🎉 中文"; /* 🎉 */ let c = \'😀\';\r\nlet b = BoundaryId::ChatTurnCap;\r\n';
    const mentions = scanRustMentions(source);
    assert.equal(mentions.length, 1);
    const mention = defined(mentions[0], 'the mention');
    assert.equal(mention.variant, 'ChatTurnCap');
    assert.equal(mention.range.start, source.indexOf('ChatTurnCap'));
    assert.equal(mention.range.end, source.indexOf('ChatTurnCap') + 'ChatTurnCap'.length);
  });

  test('identifiers in other scripts are single tokens', () => {
    const source = 'let 名前 = BoundaryId::ChatTurnCap; let é = BoundaryId::TextToolParse;';
    assert.deepEqual(mentioned(source), ['ChatTurnCap', 'TextToolParse']);
    assert.deepEqual(
      lexRust(source)
        .filter((t) => t.kind === 'ident')
        .map((t) => [t.value, t.start, t.end]),
      [
        ['let', 0, 3],
        ['名前', 4, 6],
        ['BoundaryId', 9, 19],
        ['ChatTurnCap', 21, 32],
        ['let', 34, 37],
        ['é', 38, 39],
        ['BoundaryId', 42, 52],
        ['TextToolParse', 54, 67],
      ],
    );
  });
});

describe('rust: parseFunnel', () => {
  test('arms split over lines, comments between, trailing commas optional, | alternatives, BoundaryId:: paths', () => {
    const text = [
      'impl BoundaryId {',
      "    pub fn as_str(self) -> &'static str {",
      '        match self {',
      '            Self::TextToolParse',
      '                => "text_tool_parse",',
      '            // Self::Commented => "nope",',
      '            /* Self::Blocked => "nope", */',
      '            Self::A | Self::B => /* shared */ "a_or_b",',
      '            | Self::Lead => "lead",',
      '            BoundaryId::Named => "named",',
      '            crate::boundary::BoundaryId::Qualified => "qualified",',
      '            #[allow(deprecated)]',
      '            Self::Attributed => "attributed",',
      '            Self::Last => "last"',
      '        }',
      '    }',
      '}',
    ].join('\n');
    const { arms } = parseFunnel(text);
    assert.deepEqual(
      arms.map((a) => [a.variant, a.wire]),
      [
        ['TextToolParse', 'text_tool_parse'],
        ['A', 'a_or_b'],
        ['B', 'a_or_b'],
        ['Lead', 'lead'],
        ['Named', 'named'],
        ['Qualified', 'qualified'],
        ['Attributed', 'attributed'],
        ['Last', 'last'],
      ],
    );
    for (const arm of arms) {
      assert.equal(slice(text, arm.variantRange), arm.variant);
      assert.equal(slice(text, arm.wireRange), `"${arm.wire}"`);
    }
    const a = arms.find((x) => x.variant === 'A');
    const b = arms.find((x) => x.variant === 'B');
    assert.deepEqual(a?.wireRange, b?.wireRange);
  });

  test('raw strings count, escapes are decoded; anything but a plain literal does not count', () => {
    const text = [
      'impl BoundaryId {',
      "    fn as_str(self) -> &'static str {",
      '        match self {',
      '            Self::Raw => r#"raw_"wire""#,',
      '            Self::RawPlain => r"raw\\plain",',
      '            Self::Escaped => "tab\\tquote\\"uni\\u{e9}hex\\x41",',
      '            Self::Continued => "a\\',
      '                b",',
      '            Self::Bytes => b"bytes",',
      '            Self::CStr => c"cstr",',
      '            Self::Owned => "owned".to_string(),',
      '            Self::Block => { "block" },',
      '            Self::Macro => concat!("a", "b"),',
      '            Self::Constant => WIRE,',
      '            x if x == Self::Guarded => "guarded",',
      '            Self::Tuple(_) => "tuple",',
      '        }',
      '    }',
      '}',
    ].join('\n');
    const { arms } = parseFunnel(text);
    assert.deepEqual(
      arms.map((a) => [a.variant, a.wire]),
      [
        ['Raw', 'raw_"wire"'],
        ['RawPlain', 'raw\\plain'],
        ['Escaped', 'tab\tquote"uni\u00e9hexA'],
        ['Continued', 'ab'],
        ['Tuple', 'tuple'],
      ],
    );
    const raw = defined(arms[0], 'the first arm');
    assert.equal(slice(text, raw.wireRange), 'r#"raw_"wire""#');
  });

  test('the impl block is brace-matched: braces in strings, chars and comments do not end it', () => {
    const text = [
      'impl BoundaryId {',
      "    const CLOSE: char = '}';",
      '    const DOC: &\'static str = r"',
      '}',
      '";',
      '    /* } */',
      "    pub fn as_str(self) -> &'static str {",
      '        match self { Self::After => "after" }',
      '    }',
      '}',
      'impl Other {',
      '    fn f(self) -> &\'static str { match self { Self::Outside => "outside" } }',
      '}',
      'fn free() -> &\'static str { match b { Self::Loose => "loose", } }',
    ].join('\n');
    assert.deepEqual(wireMap(text), { After: 'after' });
    // Upstream cuts at the first "\n}\n", inside the raw string, and misses the arm.
    assert.deepEqual(upstreamWireStrings(text), {});
  });

  test('a block comment whose inner line looks like an arm is not an arm (upstream counts it)', () => {
    const text = [
      'impl BoundaryId {',
      "    fn as_str(self) -> &'static str {",
      '        match self {',
      '            Self::Real => "real",',
      '            /*',
      '            Self::Ghost => "ghost",',
      '            */',
      '        }',
      '    }',
      '}',
      '',
    ].join('\n');
    assert.deepEqual(wireMap(text), { Real: 'real' });
    assert.deepEqual(upstreamWireStrings(text), { Real: 'real', Ghost: 'ghost' });
  });

  test('arms are read from every inherent impl BoundaryId, never from trait impls', () => {
    const text = [
      'impl BoundaryId { fn a(self) -> &\'static str { match self { Self::One => "one" } } }',
      'impl std::fmt::Display for BoundaryId { fn f(&self) -> &str { match self { Self::Trait => "trait" } } }',
      'impl From<u8> for BoundaryId { fn from(_: u8) -> Self { match 0 { _ => "x" } } }',
      'impl crate::boundary::BoundaryId { fn b(self) -> &\'static str { match self { Self::Two => "two", } } }',
      'impl<T> BoundaryId where T: Copy { fn c(self) -> &\'static str { match self { Self::Three => "three" } } }',
    ].join('\n');
    assert.deepEqual(wireMap(text), { One: 'one', Two: 'two', Three: 'three' });
  });

  test('enum variants: attributes, doc comments, payloads, discriminants', () => {
    const text = [
      '/// Not part of the enum: BoundaryId::Nope',
      '#[derive(Clone, Copy)]',
      'pub(crate) enum BoundaryId {',
      '    /// Doc with a comma, and { braces }.',
      '    #[serde(rename = "renamed, with comma")]',
      '    First,',
      '    //! stray inner doc',
      '    #[cfg(feature = "x")] #[allow(dead_code)] Second(u8, Vec<(u8, u16)>),',
      '    /* Commented, */ Third { a: u8, b: std::collections::HashMap<u8, u8> },',
      '    Fourth = 1 << 2,',
      '    Fifth = { 3 },',
      '    r#Sixth',
      '}',
      'enum BoundaryIdExtra { Not }',
      'enum Other { AlsoNot }',
    ].join('\n');
    const { enumVariants } = parseFunnel(text);
    assert.deepEqual(
      enumVariants.map((v) => v.name),
      ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth'],
    );
    for (const v of enumVariants) assert.equal(slice(text, v.range), v.name);
  });

  test('empty and garbage text give empty lists', () => {
    for (const text of [
      '',
      '\uFEFF',
      'impl BoundaryId {',
      'impl BoundaryId { Self::A =>',
      'impl BoundaryId { Self::A => "unterminated',
      'enum BoundaryId {',
      'enum BoundaryId',
      'impl BoundaryId',
      '}}}}{{{',
      'Self::A => "a",',
      '"impl BoundaryId { Self::A => \\"a\\" }"',
      '/* impl BoundaryId { Self::A => "a" } */',
      '\0\u{FFFF}\uD800',
    ]) {
      const funnel = parseFunnel(text);
      assert.deepEqual(funnel, { arms: [], enumVariants: [] }, JSON.stringify(text));
    }
  });
});

describe('rust: rustTokenAt', () => {
  const at = (marked: string): string => {
    const offset = marked.indexOf('|');
    return rustTokenAt(marked.slice(0, offset) + marked.slice(offset + 1), offset).kind;
  };
  test('code, comment and string by offset', () => {
    assert.equal(at('let |x = 1;'), 'code');
    assert.equal(at('let x = "a|b";'), 'string');
    assert.equal(at('let x = "ab|";'), 'string');
    assert.equal(at('let x = |"ab";'), 'code');
    assert.equal(at('let x = "ab"|;'), 'code');
    assert.equal(at("let c = 'x|';"), 'string');
    assert.equal(at("fn f<'a|>()"), 'code');
    assert.equal(at('let x = r#"a|"#;'), 'string');
    assert.equal(at('// a|b'), 'comment');
    assert.equal(at('// ab|'), 'comment');
    assert.equal(at('// ab|\r\nx'), 'comment');
    assert.equal(at('// ab\n|x'), 'code');
    assert.equal(at('/* a */|x'), 'code');
    assert.equal(at('/* /* */ a| */'), 'comment');
    assert.equal(at('/* open|'), 'comment');
    assert.equal(at('"open|'), 'string');
    assert.equal(at('"http://|x"'), 'string');
    assert.equal(at('/* " */ |x'), 'code');
    assert.equal(at('BoundaryId::Chat|'), 'code');
  });

  test('out-of-range offsets are code, never a throw', () => {
    assert.equal(rustTokenAt('"abc"', -5).kind, 'code');
    assert.equal(rustTokenAt('"abc"', 99).kind, 'code');
    assert.equal(rustTokenAt('', 0).kind, 'code');
  });
});

describe('rust: isExemptSitePath (upstream is_exempt_site minus the funnel check)', () => {
  const cases: Array<[string, boolean]> = [
    ['crates/harn-vm/src/llm/api/response/boundary/tests.rs', true],
    ['crates/harn-vm/src/agent_events/from_host_tests.rs', true],
    ['crates/harn-vm/src/foo_test.rs', true],
    ['crates/harn-vm/tests/integration.rs', true],
    ['crates\\harn-vm\\tests\\integration.rs', true],
    ['crates\\harn-vm\\src\\x_tests.rs', true],
    ['crates/harn-vm/src/visible_text.rs', false],
    ['crates/harn-vm/src/boundary.rs', false],
    ['crates/harn-vm/src/contests.rs', false],
    ['crates/harn-vm/src/tests_util.rs', false],
    ['crates/harn-vm/src/testsuite/x.rs', false],
    // Upstream's contains("/tests/") needs the slash: a path starting with tests/ is not exempt...
    ['tests/integration.rs', false],
    // ...but ends_with("_tests.rs") needs none.
    ['tests.rs', false],
    ['a_tests.rs', true],
  ];
  for (const [p, exempt] of cases) {
    test(`${p} → ${exempt}`, () => assert.equal(isExemptSitePath(p), exempt));
  }
});

describe('rust: agreement with upstream rust_sites', () => {
  // Lines without comments or literals, each mention followed by one of upstream's delimiters.
  const agreeing = [
    'BoundaryFailure::new(BoundaryId::TextToolParse, BoundaryFailureKind::Dropped, detail)',
    '    BoundaryId::ChatTurnCap,',
    'let id = BoundaryId::HostEventIngest;',
    'report(BoundaryId::ProviderAdmissionGate)',
    'match id { BoundaryId::VisibleTextSanitize => 1, _ => 2 }',
    'BoundaryId::ResponseContentExtraction',
    '    return BoundaryId::ChatTurnCap;   ',
    'f(BoundaryId::TextToolParse, BoundaryId::ChatTurnCap)',
    'let x = BoundaryId::Chat; let y = BoundaryId::ChatTurnCap;',
    'crate::boundary::BoundaryId::ResponseContentExtraction)',
    'BoundaryId::TextToolParse | BoundaryId::HostEventIngest => true,',
    'let none = 1;',
    'BoundaryFailure::new(id, kind, detail)',
  ];
  for (const line of agreeing) {
    test(`same variants: ${line.trim()}`, () => {
      assert.deepEqual(ourSiteVariants(line, VARIANTS), upstreamSiteVariants(line, VARIANTS));
    });
  }
  test('the agreeing lines do find sites: all but the two without a variant', () => {
    assert.deepEqual(
      agreeing.filter((l) => upstreamSiteVariants(l, VARIANTS).length === 0),
      ['let none = 1;', 'BoundaryFailure::new(id, kind, detail)'],
    );
    assert.equal(agreeing.length, 13);
  });

  // Where the lexer is more precise than upstream's substring rule: [line, ours, upstream].
  const diverging: Array<[string, string[], string[]]> = [
    ['// BoundaryId::ChatTurnCap,', [], ['ChatTurnCap']],
    ['let s = "BoundaryId::ChatTurnCap;";', [], ['ChatTurnCap']],
    ['/* BoundaryId::ChatTurnCap */', [], ['ChatTurnCap']],
    ['MyBoundaryId::ChatTurnCap,', [], ['ChatTurnCap']],
    ['BoundaryId::ChatTurnCap.as_str()', ['ChatTurnCap'], []],
    ['BoundaryId :: ChatTurnCap,', ['ChatTurnCap'], []],
    ['match b { BoundaryId::ChatTurnCap=>1 }', ['ChatTurnCap'], []],
    ['use crate::boundary::BoundaryId::{ChatTurnCap, TextToolParse};', ['TextToolParse', 'ChatTurnCap'], []],
  ];
  for (const [line, ours, upstream] of diverging) {
    test(`diverges: ${line}`, () => {
      assert.deepEqual(ourSiteVariants(line, VARIANTS), ours);
      assert.deepEqual(upstreamSiteVariants(line, VARIANTS), upstream);
    });
  }
});

describe('rust: random token soups', () => {
  const FRAGMENTS = [
    'BoundaryId',
    '::',
    ' :: ',
    'ChatTurnCap',
    'Self',
    'impl ',
    'enum ',
    'BoundaryId {',
    '=>',
    ' => ',
    '|',
    ',',
    ';',
    '{',
    '}',
    '(',
    ')',
    '[',
    ']',
    '#',
    '#[',
    '#!',
    '"',
    '\\"',
    '\\',
    "'",
    "'a",
    "'a'",
    "'\\''",
    'b"',
    "b'",
    'r"',
    'r#"',
    '"#',
    'r##"',
    '"##',
    'br#"',
    'c"',
    'cr"',
    'r#',
    '//',
    '///',
    '//!',
    '/*',
    '*/',
    '/**',
    '\n',
    '\r\n',
    '\r',
    '\t',
    ' ',
    '\uFEFF',
    '😀',
    '中文',
    '\uD83D',
    '\uDE00',
    'é',
    '0x1F',
    '1e-5',
    '1.5',
    '..',
    '.',
    '->',
    '<',
    '>',
    '&',
    'x',
    '_',
    "'static",
    "'outer:",
    'where ',
    'for ',
    'pub ',
    '= 1',
    '\u{1F600}',
    '\0',
    'as_str',
    '"wire"',
    'Self::X => "x",',
  ];
  const soup = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((parts) => parts.join(''));

  const inText = (text: string, r: TextRange): boolean => r.start >= 0 && r.start <= r.end && r.end <= text.length;

  test('never throws; tokens are ordered, disjoint and cover every non-space; ranges stay in the text', () => {
    fc.assert(
      fc.property(soup, fc.nat(), (text, at) => {
        const tokens = lexRust(text);
        let last = 0;
        for (const token of tokens) {
          assert.ok(token.start >= last && token.end > token.start && token.end <= text.length, JSON.stringify(token));
          assert.match(text.slice(last, token.start), /^[\s\uFEFF\u0085\u200E\u200F]*$/u);
          last = token.end;
        }
        assert.match(text.slice(last), /^[\s\uFEFF\u0085\u200E\u200F]*$/u);

        for (const m of scanRustMentions(text)) {
          assert.ok(inText(text, m.range));
          assert.equal(slice(text, m.range), m.variant);
        }
        const funnel = parseFunnel(text);
        for (const arm of funnel.arms) {
          assert.ok(inText(text, arm.variantRange) && inText(text, arm.wireRange));
          assert.equal(slice(text, arm.variantRange), arm.variant);
          assert.match(slice(text, arm.wireRange), /^(r#*)?"[^]*"#*$/);
        }
        for (const v of funnel.enumVariants) {
          assert.ok(inText(text, v.range));
          assert.equal(slice(text, v.range), v.name);
        }
        const kind = rustTokenAt(text, text.length === 0 ? 0 : at % (text.length + 1)).kind;
        assert.ok(kind === 'code' || kind === 'comment' || kind === 'string');
      }),
      { numRuns: 2000, seed: 5142 },
    );
  });

  test('a mention planted after any soup is found exactly when its offset is code', () => {
    fc.assert(
      fc.property(soup, (prefix) => {
        const text = `${prefix}\nBoundaryId::ChatTurnCap`;
        const offset = text.length - 'ChatTurnCap'.length;
        const inCode = rustTokenAt(text, offset).kind === 'code';
        const found = scanRustMentions(text).some((m) => m.range.start === offset && m.variant === 'ChatTurnCap');
        assert.equal(found, inCode, JSON.stringify(text));
      }),
      { numRuns: 1000, seed: 7 },
    );
  });
});
