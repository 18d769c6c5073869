// The till's entry module (index.html): language, the wasm core (its restaurant module only), the local
// database, the service worker, then the screen for the address (#/tables, #/order/<clientOrderId>,
// #/new/<tableId|counter>, #/orders, #/sync, #/settings; the pairing screen while the device has no token).
import { loadRestaurant } from '../bindings/restaurant.js';
import { h, mount } from '../dashboard/kit/dom.js';
import { createI18n, rememberLang, resolveLang } from '../dashboard/kit/i18n.js';
import { kitTexts } from '../dashboard/kit/texts.js';
import { setTimeI18n } from '../dashboard/kit/ui.js';
import { tillTexts } from './texts.js';
import { createTill } from './till.js';
import { orderView } from './views/order.js';
import { ordersView } from './views/orders.js';
import { pairView } from './views/pair.js';
import { settingsView } from './views/settings.js';
import { createShell } from './views/shell.js';
import { syncView } from './views/sync.js';
import { tablesView } from './views/tables.js';

const lang = resolveLang();
document.documentElement.lang = lang;
const i18n = createI18n(lang, kitTexts, tillTexts);
setTimeI18n(i18n);
const { t } = i18n;
document.title = t('till.pageTitle');
const app = document.getElementById('app');

function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/web/till/sw.js', { scope: '/web/till/' }).catch((error) => console.warn('till: no service worker:', error));
}

function parseRoute(hash) {
  const [, screen = 'tables', id] = /^#\/([a-z]+)(?:\/(.+))?$/.exec(hash) ?? [];
  if (screen === 'order' && id) return { screen: 'order', key: `order:${id}`, clientOrderId: decodeURIComponent(id) };
  if (screen === 'new' && id) return { screen: 'order', key: `new:${id}`, draftTable: decodeURIComponent(id) };
  if (['orders', 'sync', 'settings'].includes(screen)) return { screen, key: screen };
  if (screen === 'repair') return { screen: 'pair', key: 'repair', repair: true };
  return { screen: 'tables', key: 'tables' };
}

async function boot() {
  // The wasm core compiles while the database opens; the marks split the first screen's time (bench/).
  const core = loadRestaurant().then((api) => {
    performance.mark('till:core');
    return api;
  });
  const till = await createTill({ core });
  const onLang = (code) => {
    rememberLang(code);
    location.reload();
  };
  const shell = createShell({ t, lang, till, onLang });
  const navigate = (hash) => {
    location.hash = hash;
  };
  let current = { key: null, view: null };
  let ready = false;

  function render() {
    const route = till.state.device ? parseRoute(location.hash) : { screen: 'pair', key: 'pair' };
    const sameDraft = route.clientOrderId && current.view?.clientOrderId === route.clientOrderId;
    if (route.key === current.key || sameDraft) {
      current.key = route.key;
      current.view.update();
    } else {
      const props = { t, lang, till, toast: shell.toast, navigate, onLang, route };
      const view =
        route.screen === 'pair'
          ? pairView(props)
          : route.screen === 'order'
            ? orderView(props)
            : route.screen === 'orders'
              ? ordersView(props)
              : route.screen === 'sync'
                ? syncView(props)
                : route.screen === 'settings'
                  ? settingsView(props)
                  : tablesView(props);
      current = { key: route.key, view };
      mount(shell.main, view.element);
      shell.main.scrollTop = 0;
    }
    shell.update(route.screen);
    document.documentElement.dataset.screen = route.screen;
    if (!ready) {
      ready = true;
      // The first screen is interactive once drawn from local data, or, for the pairing screen, once it
      // knows whether someone is signed in.
      Promise.resolve(current.view.ready).then(() => {
        performance.mark('till:interactive');
        document.documentElement.dataset.ready = 'true';
      });
    }
  }

  await till.start();
  performance.mark('till:data');
  mount(app, shell.root);
  render();
  till.subscribe(render);
  window.addEventListener('hashchange', render);
  // The sync screen counts down to the next try.
  setInterval(() => {
    if (current.key === 'sync') render();
  }, 1000);
  navigator.storage?.persist?.().catch(() => {});
  // After the first screen: installing the worker fetches every shell file, which would compete with it.
  if (document.readyState === 'complete') registerServiceWorker();
  else window.addEventListener('load', registerServiceWorker, { once: true });
  window.till = till; // for the console and the browser tests
}

boot().catch((error) => {
  console.error('till: could not start:', error);
  mount(app, h('div', { class: 'boot', role: 'alert' }, h('p', null, h('strong', null, t('till.bootFailed'))), h('p', { class: 'muted' }, String(error?.message ?? error))));
});
