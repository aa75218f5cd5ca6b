// format_vs_parse (issue 16): formatting the corpus ÷ parsing it, interleaved in the same run (best of 7
// rounds each). Formatting includes its own parse, so the ratio is ≥ 1 by construction; goal ≤ 2.

import { format } from '../../server/src/harn/format';
import { parse } from '../../server/src/harn/parser';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

export function runFormatBenchmarks(sources: string[], metric: Metric, wanted: (name: string) => boolean): void {
  if (!wanted('format_vs_parse')) return;
  let parseBest = Infinity;
  let formatBest = Infinity;
  let sink = 0;
  for (let round = 0; round < 7; round++) {
    let t = performance.now();
    for (const text of sources) sink += parse(text).file.statements.length;
    parseBest = Math.min(parseBest, performance.now() - t);
    t = performance.now();
    for (const text of sources) {
      const result = format(text);
      sink += 'text' in result ? result.text.length : 0;
    }
    formatBest = Math.min(formatBest, performance.now() - t);
  }
  if (sink === 0) throw new Error('nothing parsed or formatted');
  metric('format_vs_parse', formatBest / parseBest, 'x', '<=2');
}
