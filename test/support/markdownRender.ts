// Markdown rendered as VS Code's hover would render it, HTML and bare links on, so a test can see what a
// hover shows: markdown-it (the renderer VS Code's own Markdown is modelled on), with every link target
// accepted so that any injected link shows up in the HTML.

import { createRequire } from 'node:module';

interface MarkdownRenderer {
  render(src: string): string;
  renderInline(src: string): string;
  validateLink: (url: string) => boolean;
}

const requireCjs = createRequire(__filename);
// markdown-it ships CommonJS without type declarations: the few methods used here are typed above.
const MarkdownIt = requireCjs('markdown-it') as new (options: { html: boolean; linkify: boolean }) => MarkdownRenderer;

export const md: MarkdownRenderer = new MarkdownIt({ html: true, linkify: true });
// markdown-it drops javascript:/file: links by default; accept every target so that any injected link shows up.
md.validateLink = () => true;
