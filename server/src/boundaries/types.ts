// Shared shapes of the loud-boundary domain (spec/harn-artifacts.md §6). Offsets are UTF-16 code units
// into the text of the file each value was read from.

export interface TextRange {
  start: number;
  end: number;
}

/** A string value read from the registry, with the range of its TOML string (quotes included). */
export interface LocatedString {
  value: string;
  range: TextRange;
}

/** One `[[boundary]]` table of scripts/loud_boundaries.toml. */
export interface BoundaryEntry {
  /** Undefined when the entry has no usable `id` (an `invalid_entry` finding). */
  id: LocatedString | undefined;
  title: LocatedString | undefined;
  drops: LocatedString | undefined;
  /** `was_silent` as written (upstream writes a boolean). */
  wasSilent: boolean | undefined;
  event: LocatedString | undefined;
  anchors: LocatedString[];
  /** The range of the `anchors = [...]` key/value, when present. */
  anchorsRange: TextRange | undefined;
  test: LocatedString | undefined;
  notes: LocatedString | undefined;
  /** The `[[boundary]]` header. */
  headerRange: TextRange;
  /** Header through the end of the table's last key/value. */
  range: TextRange;
}

/** One `[[audited]]` table: a boundary found already loud, with the marker its anchors must keep. */
export interface AuditedEntry {
  id: LocatedString | undefined;
  title: LocatedString | undefined;
  event: LocatedString | undefined;
  anchors: LocatedString[];
  anchorsRange: TextRange | undefined;
  marker: LocatedString | undefined;
  headerRange: TextRange;
  range: TextRange;
}

/** A problem in the registry file itself: TOML syntax or a schema violation, on the exact key or value. */
export interface RegistryProblem {
  code: 'toml_syntax' | 'invalid_entry';
  message: string;
  range: TextRange;
  /** The entry's id when known. */
  id?: string;
}

export interface Registry {
  /** False when the TOML could not be parsed at all (then the lists are empty). */
  parsed: boolean;
  boundaries: BoundaryEntry[];
  audited: AuditedEntry[];
  problems: RegistryProblem[];
}

/** A `Self::Variant => "wire"` arm of `impl BoundaryId`'s `as_str`, in the funnel (boundary.rs). */
export interface FunnelArm {
  variant: string;
  wire: string;
  variantRange: TextRange;
  /** The wire string literal, quotes included. */
  wireRange: TextRange;
}

export interface Funnel {
  arms: FunnelArm[];
  /** Variants of `pub enum BoundaryId { … }` (for hover and fixes; the gate reads the arms, as upstream). */
  enumVariants: { name: string; range: TextRange }[];
}

/** A `BoundaryId::Variant` mention in Rust code (outside comments and string literals). */
export interface RustMention {
  variant: string;
  /** The range of the variant name after `BoundaryId::`. */
  range: TextRange;
}

/** One file reporting one boundary: a construction site. */
export interface BoundarySite {
  /** Root-relative path with `/` separators. */
  path: string;
  id: string;
  /** Where the id is named: the `.harn` string literal (or const name), or the Rust variant token. */
  range: TextRange;
}

export type FindingKind =
  | 'invalid_entry'
  | 'duplicate_entry'
  | 'unregistered_boundary'
  | 'orphan_entry'
  | 'no_anchor'
  | 'missing_anchor'
  | 'stale_entry'
  | 'unregistered_site'
  | 'no_test'
  | 'missing_test'
  | 'inert_test'
  | 'unknown_boundary'
  | 'missing_audited_anchor'
  | 'audited_event_gone'
  | 'vacuous_funnel';
