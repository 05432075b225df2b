import { createContext, useContext, type ElementType } from 'react';
import type { ContentSectionKey } from '../../../common/content-sections.ts';

/** Whether the administrator has switched on in-place editing (SPEC 4 "Edit mode"). */
export interface EditModeState {
  enabled: boolean;
}

export const EditModeContext = createContext<EditModeState>({ enabled: false });

export function useEditMode(): EditModeState {
  return useContext(EditModeContext);
}

export interface EditableTextProps {
  section: ContentSectionKey;
  field: string;
  /** The text shown: the stored value, or the default when none is stored. */
  value: string;
  as?: ElementType;
  className?: string;
}

/**
 * A text that comes from a content section. It always renders as plain text (React escapes it);
 * in edit mode an administrator can change it in place.
 */
export function EditableText({ section, field, value, as: Tag = 'span', className }: EditableTextProps) {
  return (
    <Tag className={className} data-content-section={section} data-content-field={field}>
      {value}
    </Tag>
  );
}
