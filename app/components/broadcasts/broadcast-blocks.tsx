import type { Block } from '../../../common/broadcast-markup.ts';

/** A broadcast's blocks on the site (the member's copy, the staff's preview): headings, paragraphs with links, images. */
export function BroadcastBlocks({ blocks }: { blocks: Block[] }) {
  return (
    <div className="space-y-4 text-gray-800">
      {blocks.map((block, index) =>
        block.kind === 'heading' ? (
          <h2 key={index} className="text-xl font-bold text-gray-900">
            {block.text}
          </h2>
        ) : block.kind === 'image' ? (
          <img key={index} src={block.src} alt={block.alt} loading="lazy" className="w-full rounded-lg" />
        ) : (
          <p key={index} className="leading-relaxed">
            {block.parts.map((part, at) =>
              typeof part === 'string' ? (
                part
              ) : (
                <a key={at} href={part.href} className="font-semibold text-brand-800 underline" rel="noopener noreferrer">
                  {part.text}
                </a>
              ),
            )}
          </p>
        ),
      )}
    </div>
  );
}
