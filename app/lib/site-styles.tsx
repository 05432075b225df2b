import { createContext, useContext } from 'react';

// The site's stylesheet, written into each page's head by the server (app/entry.server.tsx): on a
// slow connection the page paints as soon as its HTML has arrived, with no stylesheet to wait for
// while the scripts' downloads share the line. Where the server has no built file to read (the dev
// server), the page links the stylesheet as usual.
const SiteStylesContext = createContext<string | null>(null);

export const SiteStylesProvider = SiteStylesContext.Provider;

const MARK = 'data-site-styles';

// In the browser, what the server wrote, read back once: the page comes alive on the same element.
const writtenByServer = typeof document === 'undefined' ? null : (document.querySelector(`style[${MARK}]`)?.textContent ?? null);

export function SiteStyles({ href }: { href: string }) {
  const text = useContext(SiteStylesContext) ?? writtenByServer;
  if (text === null) return <link rel="stylesheet" href={href} />;
  return <style {...{ [MARK]: '' }} dangerouslySetInnerHTML={{ __html: text }} />;
}
