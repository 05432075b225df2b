// A member's text as text: line breaks kept, web addresses made into links, nothing else
// interpreted (React escapes every character), and links marked as user content.
const WEB_ADDRESS = /(https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]])/g;

export function LinkedText({ text, className }: { text: string; className?: string }) {
  const parts = text.split(WEB_ADDRESS);
  return (
    <p className={`whitespace-pre-line break-words ${className ?? ''}`}>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a
            key={index}
            href={part}
            rel="nofollow ugc noopener noreferrer"
            target="_blank"
            className="font-medium text-brand-800 underline"
          >
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </p>
  );
}
