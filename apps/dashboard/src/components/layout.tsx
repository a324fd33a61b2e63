import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from '../session.tsx';

const NAV = [
  { href: '/dashboard/keys', label: 'API keys' },
  { href: '/dashboard/schemas', label: 'Schemas' },
  { href: '/dashboard/extractions', label: 'Extractions' },
  { href: '/dashboard/reviews', label: 'Review' },
  { href: '/dashboard/usage', label: 'Usage' },
  { href: '/dashboard/webhooks', label: 'Webhooks' },
  { href: '/dashboard/account', label: 'Account' },
];

export function Layout(props: { children: ComponentChildren }) {
  const { user, signOut } = useSession();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  const current = (href: string) =>
    path === href ||
    path.startsWith(`${href}/`) ||
    (href === '/dashboard/keys' && path === '/dashboard');

  // After client-side navigation, move focus to the page so keyboard and screen-reader users
  // start at its content, as they would after a full page load.
  useEffect(() => {
    setMenuOpen(false);
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [path]);

  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/dashboard/keys">
          <span class="brand__mark" aria-hidden="true">
            {'{ }'}
          </span>
          Extraction
        </a>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="primary-nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          Menu
        </button>
        <nav id="primary-nav" class={`nav${menuOpen ? ' nav--open' : ''}`} aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
          <div class="account">
            <span class="account__who" title={user.email}>
              {user.email}
              <span class="account__name">{user.account}</span>
            </span>
            <button type="button" class="button button--small" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </nav>
      </header>
      <main id="main" class="content" ref={main} tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}
