import { maySeeBroadcastSection } from './policies.ts';
import { TIERS, type Tier } from './tiers.ts';

// The text staff write for a broadcast, and what each member sees of it. A line '## Heading' is a
// heading; other lines make paragraphs (a blank line ends one); [label](https://...) is a link;
// a line of its own ![description](address) is an image (https, or a file from the library);
// a line [gold] (or [silver], [bronze]) opens a section only members of that tier and above get, a
// line [/gold] closes it. What a member may not get is dropped before anything is rendered, so the
// mail, its plain-text part and the copy on the site never hold it.

type Inline = string | { href: string; text: string };
export type Block =
  { kind: 'heading'; text: string } | { kind: 'paragraph'; parts: Inline[] } | { kind: 'image'; src: string; alt: string };
/** A run of blocks, for every member (`tier` null) or for members of `tier` and above. */
export interface Section {
  tier: Tier | null;
  blocks: Block[];
}

const SECTION_OPEN = new RegExp(`^\\[(${TIERS.join('|')})\\]$`);
const SECTION_CLOSE = new RegExp(`^\\[/(${TIERS.join('|')})\\]$`);
const IMAGE = /^!\[([^\]]*)\]\(((?:https:\/\/|\/api\/files\/)[^\s)]+)\)$/;
const LINK = /\[([^\]]+)\]\((https:\/\/[^\s)]+|\/[^\s)]*)\)/g;

function inline(text: string): Inline[] {
  const parts: Inline[] = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    parts.push({ text: match[1]!, href: match[2]! });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** The sections of a broadcast's text; a problem a person must fix (an unclosed section) is thrown as a message. */
export function parseBroadcast(body: string): Section[] {
  const sections: Section[] = [{ tier: null, blocks: [] }];
  let paragraph: string[] = [];
  const current = () => sections.at(-1)!;
  const endParagraph = () => {
    if (paragraph.length > 0) current().blocks.push({ kind: 'paragraph', parts: inline(paragraph.join(' ')) });
    paragraph = [];
  };
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    const opens = SECTION_OPEN.exec(line);
    const closes = SECTION_CLOSE.exec(line);
    const image = IMAGE.exec(line);
    if (opens) {
      endParagraph();
      if (current().tier !== null) throw new Error(`Close the [${current().tier}] section before opening another one.`);
      sections.push({ tier: opens[1] as Tier, blocks: [] });
    } else if (closes) {
      endParagraph();
      if (current().tier !== closes[1]) throw new Error(`[/${closes[1]}] closes a section that is not open.`);
      sections.push({ tier: null, blocks: [] });
    } else if (line.startsWith('## ')) {
      endParagraph();
      current().blocks.push({ kind: 'heading', text: line.slice(3).trim() });
    } else if (image) {
      endParagraph();
      current().blocks.push({ kind: 'image', alt: image[1]!, src: image[2]! });
    } else if (line === '') {
      endParagraph();
    } else {
      paragraph.push(line);
    }
  }
  endParagraph();
  if (current().tier !== null) throw new Error(`The [${current().tier}] section is never closed: add [/${current().tier}].`);
  return sections.filter((section) => section.blocks.length > 0);
}

/** The blocks a member of this tier gets: every section for everyone, and those for their tier and below (policies.ts decides). */
export const blocksFor = (sections: Section[], tier: Tier): Block[] =>
  sections.filter((section) => maySeeBroadcastSection({ membershipTier: tier }, section)).flatMap((section) => section.blocks);

/** Every link address in a broadcast, whatever its section. */
export const linksOf = (sections: Section[]): string[] =>
  sections.flatMap((section) =>
    section.blocks.flatMap((block) =>
      block.kind === 'paragraph' ? block.parts.flatMap((part) => (typeof part === 'string' ? [] : [part.href])) : [],
    ),
  );

/** The plain text of blocks (the web copy's summary, the mail's preview line). */
export const plainText = (blocks: Block[]) =>
  blocks
    .map((block) =>
      block.kind === 'image'
        ? ''
        : block.kind === 'heading'
          ? block.text
          : block.parts.map((part) => (typeof part === 'string' ? part : part.text)).join(''),
    )
    .filter(Boolean)
    .join(' ');
