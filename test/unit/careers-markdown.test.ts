/** A posting's Markdown headings, as the careers job page and the console's preview render them: an outline without gaps. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../lib/careers/markdown';

const levels = (html: string) => [...html.matchAll(/<h(\d)>/g)].map((m) => Number(m[1]));

describe('headings in a description', () => {
  it('start right below the page heading and never skip a level, whatever the author wrote', () => {
    expect(levels(renderMarkdown('### The role\n\n#### Day to day\n\n###### Tools\n\n# Benefits\n\n### Pay'))).toEqual([2, 3, 4, 2, 3]);
  });

  it('keep the levels an outline already has, shifted below the page heading', () => {
    expect(levels(renderMarkdown('# About\n\n## Team\n\n## Stack\n\n# Apply'))).toEqual([2, 3, 3, 2]);
    // The console's preview sits under its own h3: a `#` is an h4 there.
    expect(levels(renderMarkdown('# About\n\n### Deep', 4))).toEqual([4, 5]);
  });

  it('stop at h6', () => {
    expect(levels(renderMarkdown('# a\n\n## b\n\n### c\n\n#### d\n\n##### e\n\n###### f', 3))).toEqual([3, 4, 5, 6, 6, 6]);
  });
});
