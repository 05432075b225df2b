import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useFetcher } from 'react-router';
import { CONTENT_SAVE_RELOAD_DELAY_MS } from '../../../common/limits.ts';
import type { action } from '../../routes/admin/edit-content.ts';
import type { EditableTextProps } from './editable-text.tsx';

/**
 * An editable text in edit mode: outlined; a click makes it editable; leaving it or Enter saves a
 * changed text, Escape reverts it; about 500 ms after a successful save the page reloads (SPEC 4).
 * It still renders as plain text (React escapes it).
 */
export function TextEditor({ section, field, value, as: Tag = 'span', className }: EditableTextProps) {
  const [editing, setEditing] = useState(false);
  // Saved by the admin's in-place edit action: the current section with this one field replaced (SPEC 7).
  const save = useFetcher<typeof action>();
  const saving = save.state !== 'idle';
  const element = useRef<HTMLElement>(null);
  const skipSave = useRef(false);

  useEffect(() => {
    if (save.state !== 'idle' || !save.data) return;
    if (save.data.ok) {
      const timer = setTimeout(() => window.location.reload(), CONTENT_SAVE_RELOAD_DELAY_MS);
      return () => clearTimeout(timer);
    }
    // SPEC 8: logged, reported as a failure, no reload and no visible message; the text goes back.
    console.warn('In-place content save failed', save.data);
    if (element.current) element.current.textContent = value;
  }, [save.state, save.data, value]);

  const common = { className, 'data-content-section': section, 'data-content-field': field };

  function startEditing(event: MouseEvent) {
    // Editable text inside a link or button must not navigate while editing.
    event.preventDefault();
    event.stopPropagation();
    if (editing || saving) return;
    setEditing(true);
    requestAnimationFrame(() => {
      const target = element.current;
      if (!target) return;
      target.focus();
      // Start with the whole text selected, ready to be replaced or adjusted.
      const range = document.createRange();
      range.selectNodeContents(target);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
    });
  }

  function revert() {
    if (element.current) element.current.textContent = value;
  }

  function finish() {
    setEditing(false);
    if (skipSave.current) {
      skipSave.current = false;
      return;
    }
    const text = element.current?.textContent ?? '';
    if (text === value) return;
    void save.submit({ section, field, value: text }, { method: 'post', action: '/admin/edit-content' });
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      element.current?.blur();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      skipSave.current = true;
      revert();
      element.current?.blur();
    }
  }

  return (
    <>
      <Tag
        {...common}
        ref={element}
        data-editable="true"
        contentEditable={editing ? 'plaintext-only' : undefined}
        suppressContentEditableWarning
        onClick={startEditing}
        onBlur={editing ? finish : undefined}
        onKeyDown={editing ? onKeyDown : undefined}
        className={`${className ?? ''} cursor-text rounded outline-2 outline-offset-2 outline-dashed outline-gold-500 ${editing ? 'outline-solid bg-white/10' : ''}`}
      >
        {value}
      </Tag>
      {saving && (
        <span role="status" className="ml-2 rounded bg-gold-400 px-2 py-0.5 text-xs font-semibold text-brand-900">
          Saving...
        </span>
      )}
    </>
  );
}
