import { useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import { EditModeContext } from './editable-text.tsx';
import { TextEditor } from './text-editor.tsx';

// SPEC 4 "Edit mode", which is staff's alone: the switch in the nav and the in-place editor. The
// layout and the nav load this file (React.lazy) only for a viewer the root loader says edits the
// pages' texts, so a visitor's or a member's pages never download it.

// Edit mode stays on for the tab until staff switch it off: through the reload that follows each
// in-place save (SPEC 4) and from page to page.
const EDIT_MODE_KEY = 'edit-mode';
const editModeListeners = new Set<() => void>();
const editModeStore = {
  subscribe(listener: () => void) {
    editModeListeners.add(listener);
    return () => editModeListeners.delete(listener);
  },
  get(): boolean {
    try {
      return sessionStorage.getItem(EDIT_MODE_KEY) === 'on';
    } catch {
      return false;
    }
  },
  set(on: boolean) {
    try {
      if (on) sessionStorage.setItem(EDIT_MODE_KEY, 'on');
      else sessionStorage.removeItem(EDIT_MODE_KEY);
    } catch {
      // Storage refused (a private window): edit mode still works, for this page.
    }
    editModeListeners.forEach((listener) => listener());
  },
};

/** Edit mode for the page inside it: off by default, switched by the nav's button (EditSiteButton). */
export default function StaffEditMode({ children }: { children: ReactNode }) {
  const editing = useSyncExternalStore(editModeStore.subscribe, editModeStore.get, () => false);
  // The in-place editor comes with this file: it is there when staff switch edit mode on.
  const editMode = useMemo(() => ({ enabled: editing, toggle: () => editModeStore.set(!editing), Editor: TextEditor }), [editing]);
  return <EditModeContext.Provider value={editMode}>{children}</EditModeContext.Provider>;
}

/** SPEC 2: 'Edit Site' / 'Exit Edit' for staff only; `onToggle` also closes the phone menu, so the page is there to edit. */
export function EditSiteButton({ onToggle }: { onToggle: () => void }) {
  const editMode = useContext(EditModeContext);
  return (
    <Button
      variant="gold"
      size="sm"
      aria-pressed={editMode.enabled}
      onClick={() => {
        editMode.toggle();
        onToggle();
      }}
    >
      {editMode.enabled ? 'Exit Edit' : 'Edit Site'}
    </Button>
  );
}
