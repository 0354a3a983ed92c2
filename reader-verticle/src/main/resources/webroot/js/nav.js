// Site header: brand, Library and (for admins) Users, Scraper and Service health links, the signed-in user and the Log out button.
import { el, toast } from './dom.js';
import { logout } from './api.js';

/** Fills `#site-header` for the signed-in user; `current` is 'library', 'users', 'scraper', 'health', 'settings' or
 * 'profile'. */
export function renderNav(me, current) {
  const header = document.getElementById('site-header');
  if (!header) return;
  const link = (id, href, label, key) => el('a', {
    id, href, text: label, 'aria-current': current === key ? 'page' : null,
  });
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
  header.replaceChildren(el('div', { class: 'bar' },
    el('a', { class: 'brand', href: '/' },
      el('img', { src: '/img/logo.svg', alt: '', width: 26, height: 26 }), el('span', { text: 'MangaCircus' })),
    el('nav', { class: 'site-nav', 'aria-label': 'Main' },
      link('nav-library', '/', 'Library', 'library'),
      me && me.role === 'admin' ? link('nav-users', '/admin/users.html', 'Users', 'users') : null,
      me && me.role === 'admin' ? link('nav-add', '/admin/add.html', 'Add titles', 'add') : null,
      me && me.role === 'admin' ? link('nav-scraper', '/admin/scraper.html', 'Scraper', 'scraper') : null,
      me && me.role === 'admin' ? link('nav-health', '/admin/health.html', 'Service health', 'health') : null,
      me && me.role === 'admin' ? link('nav-settings', '/admin/settings.html', 'Settings', 'settings') : null),
    el('div', { class: 'site-user' },
      el('span', { class: 'who', title: `Signed in as ${name}` },
        el('span', { class: 'avatar', 'aria-hidden': 'true', text: name.slice(0, 1) }),
        el('a', { id: 'whoami', href: '/profile.html', text: name, title: 'Profile and app passwords',
          'aria-current': current === 'profile' ? 'page' : null }),
        me && me.role === 'admin' ? el('span', { class: 'role-badge', text: 'admin' }) : null),
      logoutButton)));
}
