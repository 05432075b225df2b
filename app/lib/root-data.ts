import { useRouteLoaderData } from 'react-router';
import type { ContentFields } from '../../common/content-sections.ts';
import type { FlashMessage } from '../../common/request-context.ts';
import type { PublicViewer } from '../../common/viewer.ts';

/** What the root loader gives every page: who is signed in, the footer texts, and a toast left by the last action. */
export interface RootData {
  viewer: PublicViewer;
  footerText: ContentFields<'footer_text'>;
  /** The app's store links (content section mobile_app), empty until staff set them. */
  mobileApp: ContentFields<'mobile_app'>;
  flash: FlashMessage | null;
}

/** The root loader's data, from any route or component. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>('root');
}
