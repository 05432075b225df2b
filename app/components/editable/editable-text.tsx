import { createContext, useContext, type ComponentType, type ElementType } from 'react';
import type { ContentSectionKey } from '../../../common/content-sections.ts';

/** Whether the administrator has switched on in-place editing (SPEC 4 "Edit mode"). */
export interface EditModeState {
  enabled: boolean;
  toggle: () => void;
  /** The in-place editor: staff's alone, so it comes with edit-mode.tsx, which only staff load. */
  Editor?: ComponentType<EditableTextProps>;
}

export const EditModeContext = createContext<EditModeState>({ enabled: false, toggle: () => {} });

export interface EditableTextProps {
  section: ContentSectionKey;
  field: string;
  /** The text shown: the stored value, or the default when none is stored. */
  value: string;
  as?: ElementType;
  className?: string;
  /** Outside edit mode the text is a link to this address (a mailto: or tel: link, say). */
  href?: string;
}

/** A text that comes from a content section: plain text (React escapes it), editable in edit mode. */
export function EditableText(props: EditableTextProps) {
  const { enabled, Editor } = useContext(EditModeContext);
  if (enabled && Editor) return <Editor {...props} />;
  const { section, field, value, as: Tag = 'span', className, href } = props;
  return (
    <Tag className={className} data-content-section={section} data-content-field={field}>
      {href ? (
        <a href={href} className="underline decoration-gray-300 underline-offset-2 hover:text-brand-800 hover:decoration-current">
          {value}
        </a>
      ) : (
        value
      )}
    </Tag>
  );
}
