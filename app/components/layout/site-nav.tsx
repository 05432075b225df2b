import { lazy, useContext, useEffect, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { NAV_SCROLL_THRESHOLD_PX } from '../../../common/limits-every-page.ts';
import type { PublicViewer } from '../../../common/viewer.ts';
import { ButtonLink } from '../ui/button.tsx';
import { PlainPage } from '../../lib/plain-page.tsx';

// SPEC 2 Shared layout: the five section links, in the top navigation and the mobile menu.
const SECTION_LINKS = [
  { to: '/courses', label: 'Courses' },
  { to: '/podcast', label: 'Podcast' },
  { to: '/resources', label: 'Resources' },
  { to: '/community', label: 'Community' },
  { to: '/pricing', label: 'Pricing' },
] as const;

// The actions' links (Login; a member's Dashboard and Coaching): at least 44 px tall, easy to tap on a phone.
export const ACTION_LINK = 'inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600';

export function Logo() {
  return (
    <Link to="/" className="flex items-center gap-2 font-extrabold tracking-tight">
      <span className="grid h-9 w-9 place-items-center rounded-lg bg-brand-800 text-lg text-gold-400" aria-hidden="true">
        R
      </span>
      <span className="text-lg text-brand-800">
        Realty<span className="text-gold-600">Pocket</span>
      </span>
    </Link>
  );
}

// What only a signed-in member or staff see, loaded for them alone: a visitor's pages never download it.
const MemberActions = lazy(() => import('./member-actions.tsx'));
const EditSiteButton = lazy(() => import('../editable/edit-mode.tsx').then((module) => ({ default: module.EditSiteButton })));

export function SiteNav({ viewer, unread = 0, editsTexts = false }: { viewer: PublicViewer; unread?: number; editsTexts?: boolean }) {
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const plain = useContext(PlainPage) !== null;

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAV_SCROLL_THRESHOLD_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // Escape closes the open phone menu and puts the focus back on its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  // SPEC 2: 'Edit Site' / 'Exit Edit' for staff only; on a phone it also closes the menu, so the page is there to edit.
  const editControl = editsTexts && <EditSiteButton onToggle={() => setMenuOpen(false)} />;

  const member = viewer.member;
  const actions = member ? (
    <MemberActions member={member} unread={unread} onNavigate={() => setMenuOpen(false)} />
  ) : (
    <>
      <Link to="/login" onClick={() => setMenuOpen(false)} className={ACTION_LINK}>
        Login
      </Link>
      <ButtonLink to="/signup" size="sm" onClick={() => setMenuOpen(false)}>
        Get Started Today
      </ButtonLink>
    </>
  );

  return (
    // A visitor's plain page has no React: public/page-enhancer.js sets the same classes and
    // attributes (the scrolled look, the menu's state and icon).
    <header
      data-scrolled={scrolled ? 'true' : 'false'}
      className={`fixed inset-x-0 top-0 z-40 transition-all ${scrolled ? 'bg-white/95 shadow-md backdrop-blur' : 'bg-white/80'}`}
    >
      {/* Three columns: the section links stay in the middle whatever the right-hand actions hold
          (signed in or out), so they never move when a member signs in. */}
      <nav
        aria-label="Main"
        className={`mx-auto grid max-w-6xl grid-cols-[1fr_auto] items-center gap-4 px-4 md:grid-cols-[1fr_auto_1fr] ${scrolled ? 'h-14' : 'h-16'}`}
      >
        <Logo />
        <ul className="hidden items-center gap-6 md:flex">
          {SECTION_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                className={({ isActive }) => `text-sm font-medium ${isActive ? 'text-brand-800' : 'text-gray-700 hover:text-brand-800'}`}
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="hidden min-w-0 items-center justify-end gap-3 md:flex">
          {editControl}
          {actions}
        </div>
        <button
          ref={menuButton}
          type="button"
          className="justify-self-end rounded-md p-2 text-brand-800 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </nav>
      {/* A visitor's plain page (no React) holds the menu, hidden until public/page-enhancer.js opens it. */}
      {(menuOpen || plain) && (
        <div id="mobile-menu" hidden={!menuOpen} className="border-t border-gray-100 bg-white px-4 pb-4 shadow-lg md:hidden">
          <ul className="flex flex-col py-2">
            {SECTION_LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  onClick={() => setMenuOpen(false)}
                  className="block rounded-md px-2 py-3 text-base font-medium text-gray-800 hover:bg-brand-50"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap items-center gap-4 border-t border-gray-100 pt-4">
            {editControl}
            {actions}
          </div>
        </div>
      )}
    </header>
  );
}
