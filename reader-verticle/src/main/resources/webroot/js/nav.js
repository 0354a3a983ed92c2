// Site header: brand, the links (built from LINKS; admins see the admin ones), the signed-in user, Log out and the theme
// toggle. On narrow screens the links and the user fold into a menu opened by #menu-toggle.
import { el, toast } from './dom.js';
import { logout } from './api.js';

const THEME_KEY = 'mc.theme';

/** The header's links, in order; `admin` ones only for admins. One line per link. */
const LINKS = [
  { id: 'nav-library', href: '/', label: 'Library', key: 'library' },
  { id: 'nav-offline', href: '/offline.html', label: 'Offline', key: 'offline' },
  { id: 'nav-users', href: '/admin/users.html', label: 'Users', key: 'users', admin: true },
  { id: 'nav-add', href: '/admin/add.html', label: 'Add titles', key: 'add', admin: true },
  { id: 'nav-scraper', href: '/admin/scraper.html', label: 'Scraper', key: 'scraper', admin: true },
  { id: 'nav-health', href: '/admin/health.html', label: 'Service health', key: 'health', admin: true },
  { id: 'nav-settings', href: '/admin/settings.html', label: 'Settings', key: 'settings', admin: true },
];

/** The theme now shown: `light` or `dark` (js/theme.js set it before the first paint). */
export function currentTheme() {
  return document.documentElement.dataset.theme === 'light' ? 'light' : 'dark';
}

/** Shows and remembers a theme. */
export function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch (e) {
    // private mode: the choice lasts for this page only
  }
}

function themeButton() {
  const button = el('button', { id: 'theme-toggle', type: 'button', class: 'small ghost icon-button' });
  const label = () => {
    const next = currentTheme() === 'dark' ? 'light' : 'dark';
    button.textContent = currentTheme() === 'dark' ? '☀' : '☾';
    button.title = `Switch to the ${next} theme`;
    button.setAttribute('aria-label', `Switch to the ${next} theme`);
  };
  label();
  button.addEventListener('click', () => {
    setTheme(currentTheme() === 'dark' ? 'light' : 'dark');
    label();
  });
  return button;
}

/** Fills `#site-header` for the signed-in user; `current` is the `key` of a link in LINKS or 'profile'. */
export function renderNav(me, current) {
  const header = document.getElementById('site-header');
  if (!header) return;
  const isAdmin = !!(me && me.role === 'admin');
  const logoutButton = el('button', { id: 'logout', type: 'button', class: 'small ghost', text: 'Log out' });
  logoutButton.addEventListener('click', async () => {
    logoutButton.disabled = true;
    try {
      await logout();
    } catch (e) {
      logoutButton.disabled = false;
      toast(e.message, { error: true });
    }
  });
  const name = (me && me.username) || '';
  const menu = el('div', { id: 'site-menu', class: 'site-menu' },
    el('nav', { class: 'site-nav', 'aria-label': 'Main' },
      LINKS.filter((l) => !l.admin || isAdmin).map((l) => el('a', {
        id: l.id, href: l.href, text: l.label, 'aria-current': current === l.key ? 'page' : null,
      }))),
    el('div', { class: 'site-user' },
      el('span', { class: 'who', title: `Signed in as ${name}` },
        el('span', { class: 'avatar', 'aria-hidden': 'true', text: name.slice(0, 1) }),
        el('a', { id: 'whoami', href: '/profile.html', text: name, title: 'Profile and app passwords',
          'aria-current': current === 'profile' ? 'page' : null }),
        isAdmin ? el('span', { class: 'role-badge', text: 'admin' }) : null),
      logoutButton));
  const toggle = el('button', { id: 'menu-toggle', type: 'button', class: 'small ghost icon-button',
    'aria-controls': 'site-menu', 'aria-expanded': 'false', 'aria-label': 'Menu', title: 'Menu' },
  el('span', { class: 'menu-icon', 'aria-hidden': 'true' }));
  const setOpen = (open) => {
    header.classList.toggle('menu-open', open);
    toggle.setAttribute('aria-expanded', String(open));
  };
  toggle.addEventListener('click', () => setOpen(!header.classList.contains('menu-open')));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && header.classList.contains('menu-open')) {
      setOpen(false);
      toggle.focus();
    }
  });
  header.replaceChildren(el('div', { class: 'bar' },
    el('a', { class: 'brand', href: '/' },
      el('img', { src: '/img/logo.svg', alt: '', width: 26, height: 26 }), el('span', { text: 'MangaCircus' })),
    menu, themeButton(), toggle));
  labelTables();
}

/**
 * Gives every table cell its column's heading as `data-label` (now and as rows are drawn), so that narrow screens can
 * show a row as a stacked card with each value named (css/app.css).
 */
function labelTables() {
  const label = () => {
    for (const table of document.querySelectorAll('table')) {
      const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
      if (!heads.length) continue;
      for (const row of table.querySelectorAll('tbody tr')) {
        [...row.children].forEach((cell, i) => {
          if (heads[i] && !cell.hasAttribute('data-label')) cell.setAttribute('data-label', heads[i]);
        });
      }
    }
  };
  label();
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      label();
    });
  }).observe(document.body, { childList: true, subtree: true });
}
