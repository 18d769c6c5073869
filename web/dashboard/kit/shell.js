// The dashboard shell: reads the address (/dashboard/{slug}/{product}/{page}/{rest...}), loads the session,
// draws the layout and mounts the page module, and keeps doing so as links are followed (history API, no
// reload). A product registers itself with a descriptor (see mail/product.js):
//
//   { id, texts: {en, tr}, title: 'text key', styles: 'URL of its CSS' (optional),
//     pages: [{ id, title: 'text key', icon, load: () => import(...) }] }
//
// A page module's default export is `mount(ctx)` (may be async; may answer a cleanup function). ctx holds:
//   t (translator with t.number/t.dateTime/t.relative), lang, api (kit/api.js, with the session's CSRF token),
//   session, company {slug, name, role, permissions}, route {slug, product, page, rest, query}, root (the
//   page's element), href(page, ...rest) for URLs, navigate(url, {replace}), setQuery(params)
//   (rewrites the query without a reload), setPath(url, {replace}) (another address of the same page, such as
//   its tab, without remounting it; Back and Forward then mount the page from that address), signal (aborted when the page is left), reportError(error) (the
//   banner), clearError(), toast(text), setDirty(bool) (asks before leaving with unsaved changes),
//   setTitle(text).
// Actions are not hidden by permission: the server decides, and its 403 shows where the action was taken.
// (The rule is core's `allows`, in @platform/core, should a page want to grey actions out.)
import { createApi } from './api.js';
import { h, mount } from './dom.js';
import { createI18n, rememberLang, resolveLang } from './i18n.js';
import { createLayout } from './layout.js';
import { kitTexts } from './texts.js';
import { confirmDialog, emptyState, loadingBlock, setTimeI18n } from './ui.js';

function parseRoute(url) {
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'dashboard') return null;
  const [, slug = null, product = null, page = null, ...rest] = parts;
  return { slug, product, page, rest, query: url.searchParams };
}

// A dashboard path from its pieces, each percent-encoded.
export function dashboardPath(...segments) {
  return `/dashboard/${segments.filter((s) => s !== null && s !== undefined && s !== '').map((s) => encodeURIComponent(s)).join('/')}`;
}

export async function startDashboard({ products, root = document.getElementById('app') }) {
  let lang = resolveLang();
  let i18n = createI18n(lang, kitTexts, ...products.map((p) => p.texts));
  let t = i18n.t;
  document.documentElement.lang = lang;
  setTimeI18n(i18n);

  mount(root, h('div', { class: 'boot' }, loadingBlock(t('kit.loading'))));
  // A product's own style sheet, beside kit.css.
  for (const product of products) {
    if (product.styles) document.head.append(h('link', { rel: 'stylesheet', href: product.styles }));
  }

  // Who is signed in. A 401 goes to the sign-in page, which comes back here.
  let session;
  try {
    const answer = await createApi().get('/api/session');
    session = answer;
  } catch (error) {
    if (error.status === 401) {
      const next = location.pathname + location.search;
      location.replace(`/login?next=${encodeURIComponent(next)}&ui_locales=${lang}`);
      return;
    }
    mount(
      root,
      h(
        'div',
        { class: 'boot boot-failed', role: 'alert' },
        h('p', null, t('kit.error.network')),
        h('button', { type: 'button', class: 'btn btn-primary', onclick: () => location.reload() }, t('kit.retry')),
      ),
    );
    return;
  }

  let layout = null;
  let layoutKey = '';
  let cleanup = null;
  let controller = null;
  let dirty = false;
  let api = null;

  window.addEventListener('beforeunload', (event) => {
    if (dirty) {
      event.preventDefault();
      event.returnValue = '';
    }
  });

  async function mayLeave() {
    if (!dirty) return true;
    const ok = await confirmDialog({
      title: t('kit.unsaved'),
      text: '',
      confirmLabel: t('kit.confirm'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (ok) dirty = false;
    return ok;
  }

  async function navigate(url, { replace = false, force = false } = {}) {
    if (!force && !(await mayLeave())) return;
    const target = new URL(url, location.href);
    if (replace) history.replaceState(null, '', target);
    else history.pushState(null, '', target);
    await render();
  }

  // Links inside the dashboard move without a reload.
  root.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = event.target.closest('a[href]');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith('/dashboard')) return;
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
    event.preventDefault();
    navigate(url);
  });
  window.addEventListener('popstate', () => {
    // The address already changed; unsaved changes are given up by the browser's own back button.
    dirty = false;
    render();
  });

  function setLang(next) {
    mayLeave().then((ok) => {
      if (!ok) return;
      rememberLang(next);
      const url = new URL(location.href);
      if (url.searchParams.has('lang')) {
        url.searchParams.set('lang', next);
        history.replaceState(null, '', url);
      }
      lang = next;
      i18n = createI18n(lang, kitTexts, ...products.map((p) => p.texts));
      t = i18n.t;
      document.documentElement.lang = lang;
      setTimeI18n(i18n);
      layoutKey = '';
      render();
    });
  }

  function firstPage(slug) {
    const product = products[0];
    return dashboardPath(slug, product.id, product.pages[0].id);
  }

  function standalone(title, text, action) {
    layoutKey = '';
    layout = createLayout({ t, lang, session, company: null, nav: [], onCompany: (slug) => navigate(firstPage(slug)), onLang: setLang });
    mount(root, layout.root);
    mount(layout.content, h('div', { class: 'standalone' }, emptyState({ title, text, action })));
    document.title = `${title} · ${t('kit.brand')}`;
  }

  async function render() {
    cleanup?.();
    cleanup = null;
    controller?.abort();
    controller = new AbortController();
    dirty = false;
    const { signal } = controller;

    const route = parseRoute(new URL(location.href));
    if (!route) {
      location.replace('/dashboard');
      return;
    }
    const companies = session.companies ?? [];
    if (!route.slug) {
      if (!companies.length) {
        standalone(t('kit.noCompany.title'), t('kit.noCompany.text'));
        return;
      }
      history.replaceState(null, '', firstPage(companies[0].slug) + location.search);
      return render();
    }
    const company = companies.find((c) => c.slug === route.slug);
    if (!company) {
      standalone(t('kit.unknownCompany.title'), t('kit.unknownCompany.text', { slug: route.slug }));
      return;
    }
    const product = products.find((p) => p.id === (route.product ?? products[0].id));
    const pageEntry = product?.pages.find((p) => p.id === (route.page ?? product.pages[0].id));
    if (!route.product || !route.page) {
      if (product && pageEntry) {
        history.replaceState(null, '', dashboardPath(company.slug, product.id, pageEntry.id) + location.search);
        return render();
      }
    }

    const key = `${lang}|${company.slug}`;
    if (key !== layoutKey) {
      layoutKey = key;
      api = createApi({ csrfToken: session.csrfToken, onUnauthorized: () => {} });
      layout = createLayout({
        t,
        lang,
        session,
        company,
        nav: products.map((p) => ({
          title: t(p.title),
          items: p.pages.map((pg) => ({ id: `${p.id}/${pg.id}`, label: t(pg.title), icon: pg.icon, href: dashboardPath(company.slug, p.id, pg.id) })),
        })),
        onCompany: (slug) => navigate(dashboardPath(slug, product?.id ?? products[0].id, pageEntry?.id ?? products[0].pages[0].id)),
        onLang: setLang,
      });
      mount(root, layout.root);
    }
    layout.banner.clear();
    layout.setNavOpen(false);
    layout.renderNav(product && pageEntry ? `${product.id}/${pageEntry.id}` : '');

    if (!product || !pageEntry) {
      mount(layout.content, h('div', { class: 'standalone' }, emptyState({ title: t('kit.notFound.title'), text: t('kit.notFound.text') })));
      document.title = `${t('kit.notFound.title')} · ${t('kit.brand')}`;
      return;
    }

    const page = h('div', { class: 'page-body', dataset: { page: `${product.id}/${pageEntry.id}` } }, loadingBlock(t('kit.loading')));
    mount(layout.content, page);
    document.title = `${t(pageEntry.title)} · ${company.name} · ${t('kit.brand')}`;

    const ctx = {
      t,
      lang,
      api,
      session,
      company,
      route,
      root: page,
      signal,
      href: (pageId, ...rest) => dashboardPath(company.slug, product.id, pageId, ...rest),
      navigate: (url, options) => navigate(url, options),
      setQuery(params, { replace = true } = {}) {
        const url = new URL(location.href);
        for (const [name, value] of Object.entries(params)) {
          if (value === null || value === undefined || value === '') url.searchParams.delete(name);
          else url.searchParams.set(name, String(value));
        }
        if (replace) history.replaceState(null, '', url);
        else history.pushState(null, '', url);
      },
      setPath(url, { replace = false } = {}) {
        if (signal.aborted) return;
        const target = new URL(url, location.href);
        if (replace) history.replaceState(null, '', target);
        else history.pushState(null, '', target);
      },
      reportError(error) {
        if (error?.name === 'AbortError' || signal.aborted) return;
        layout.banner.error(error);
      },
      clearError: () => layout.banner.clear(),
      toast: (text) => layout.toast(text),
      setDirty(on) {
        if (!signal.aborted) dirty = Boolean(on);
      },
      setTitle(text) {
        document.title = `${text} · ${company.name} · ${t('kit.brand')}`;
      },
    };
    try {
      const module = await pageEntry.load();
      if (signal.aborted) return;
      const result = await module.default(ctx);
      if (signal.aborted) {
        if (typeof result === 'function') result();
        return;
      }
      if (typeof result === 'function') cleanup = result;
      document.body.dataset.ready = 'true';
    } catch (error) {
      if (signal.aborted || error?.name === 'AbortError') return;
      console.error(error);
      mount(page, emptyState({ title: t('kit.error.server', { status: '' }).replace(' ()', ''), text: String(error.message ?? error) }));
      layout.banner.error(error);
    }
  }

  await render();
}
