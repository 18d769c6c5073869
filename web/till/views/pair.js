// "Pair this device": shown while the till has no token. A person signed in to the platform picks the
// company, the branch and a name for the device; the till then gets its own branch-limited token
// (pairing.js). Signed out: a link to the sign-in page that comes back here. "Pair again" (#/repair) is the
// same form for a paired till whose token stopped working: company and branch stay the device's, the queue
// and the orders are kept.
import { ApiError } from '../../dashboard/kit/api.js';
import { h, mount } from '../../dashboard/kit/dom.js';
import { createForm, input, select } from '../../dashboard/kit/form.js';
import { button, card, emptyState, linkButton, loadingBlock } from '../../dashboard/kit/ui.js';
import { kitIcons, tillIcons } from '../icons.js';
import { branchesOf, loadSession, pairDevice } from '../pairing.js';

export const TILL_URL = '/web/till/index.html';

export function pairView({ t, lang, till, toast, route }) {
  const repair = Boolean(route?.repair && till.state.device);
  const device = repair ? till.state.device : null;
  const element = h('section', { class: 'till-screen pair-screen', dataset: { screen: 'pair', mode: repair ? 'repair' : 'pair' } });

  function frame(...children) {
    mount(
      element,
      h(
        'div',
        { class: 'pair-frame' },
        h(
          'div',
          { class: 'pair-intro' },
          h('h1', { class: 'till-title' }, repair ? t('till.repair.title') : t('till.pair.title')),
          h('p', { class: 'muted' }, repair ? t('till.repair.lead', { branch: device.branch.name }) : t('till.pair.lead')),
        ),
        ...children,
      ),
    );
  }

  async function start() {
    frame(loadingBlock(t('kit.loading')));
    let session;
    try {
      session = await loadSession();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        frame(
          card(
            { dataset: { role: 'signed-out' } },
            emptyState({
              title: t('till.pair.signInTitle'),
              text: t('till.pair.signInText'),
              drawing: tillIcons.lock,
              action: linkButton(t('till.pair.signIn'), `/login?next=${encodeURIComponent(repair ? `${TILL_URL}#/repair` : TILL_URL)}&ui_locales=${lang}`, { className: 'btn-large', dataset: { action: 'sign-in' } }),
            }),
          ),
        );
      } else {
        frame(
          card(
            { dataset: { role: 'pair-offline' } },
            emptyState({ title: t('till.pair.offlineTitle'), text: t('till.pair.offlineText'), drawing: tillIcons.wifiOff, action: button(t('kit.retry'), { onclick: start }) }),
          ),
        );
      }
      return;
    }
    const companies = (session.companies ?? []).filter((c) => !repair || c.slug === device.company.slug);
    if (!companies.length) {
      frame(card({}, emptyState({ title: t('kit.noCompany.title'), text: t('kit.noCompany.text'), drawing: kitIcons.info })));
      return;
    }
    await drawForm(session, companies);
  }

  function drawForm(session, companies) {
    const companyControl = select({ name: 'company', value: companies[0].slug, options: companies.map((c) => ({ value: c.slug, label: c.name })) });
    const branchControl = select({ name: 'branch', options: [{ value: '', label: t('kit.loading'), disabled: true }], value: '' });
    const nameControl = input({ name: 'deviceName', value: device?.deviceName ?? '', placeholder: t('till.pair.deviceNamePlaceholder'), maxlength: '120', autocomplete: 'off' });
    let branches = [];

    async function loadBranches() {
      branchControl.disabled = true;
      branchControl.replaceChildren(h('option', { value: '', disabled: true, selected: true }, t('kit.loading')));
      try {
        branches = (await branchesOf(companyControl.value)).filter((b) => !repair || b.id === device.branch.id);
        mount(
          branchControl,
          h('option', { value: '', disabled: true, selected: true }, branches.length ? t('till.pair.chooseBranch') : t('till.pair.noBranches')),
          branches.map((b) => h('option', { value: b.id }, b.name)),
        );
        if (branches.length === 1) branchControl.value = branches[0].id;
      } catch (error) {
        branches = [];
        branchControl.replaceChildren(h('option', { value: '', disabled: true, selected: true }, t('till.pair.branchesFailed', { message: error.message })));
      } finally {
        branchControl.disabled = false;
      }
    }
    companyControl.addEventListener('change', loadBranches);
    companyControl.disabled = repair;

    const form = createForm({
      t,
      id: 'pair-form',
      submitLabel: repair ? t('till.repair.submit') : t('till.pair.submit'),
      busyLabel: t('till.pair.busy'),
      fields: [
        { name: 'company', label: t('till.pair.company'), control: companyControl, required: true },
        { name: 'branch', label: t('till.pair.branch'), control: branchControl, required: true, hint: t('till.pair.branchHint') },
        { name: 'deviceName', label: t('till.pair.deviceName'), control: nameControl, required: true, hint: t('till.pair.deviceNameHint') },
      ],
      onSubmit: async (values) => {
        const company = companies.find((c) => c.slug === values.company);
        const branch = branches.find((b) => b.id === values.branch);
        const paired = await pairDevice(session, { company, branch, deviceName: values.deviceName.trim() });
        if (repair) await till.repair(paired);
        else await till.pair(paired);
        toast(t(repair ? 'till.repair.done' : 'till.pair.done', { branch: branch.name }));
        location.hash = repair ? '#/sync' : '#/tables';
      },
    });
    frame(
      card({ title: t('till.pair.formTitle'), subtitle: t('till.pair.signedInAs', { name: session.user.name || session.user.email }) }, form.element),
      h('p', { class: 'muted pair-note' }, t('till.pair.tokenNote')),
    );
    return loadBranches();
  }

  // Settles once the screen can be used: the sign-in link, the offline note or the form is drawn.
  const ready = start();
  return { element, update() {}, ready };
}
