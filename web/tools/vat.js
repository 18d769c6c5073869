// The VAT calculator page: reads the form, asks the platform core (wasm, through @platform/core) and shows
// the answer or the core's error. No arithmetic happens here: every figure comes from the core.
import { loadPlatformCore } from '/web/bindings/index.js';

const $ = (id) => document.getElementById(id);

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

// Minor units as a two-decimal amount for the hint line ("11800" -> "118.00"), done on the digits so that
// no floating point is involved.
function asMajor(minor) {
  const digits = String(minor).padStart(3, '0');
  const whole = grouped.format(Number(digits.slice(0, -2)));
  return `${whole}.${digits.slice(-2)}`;
}

// The number the user typed, or NaN for anything that is not one: the core then names the problem.
function readNumber(input) {
  const text = input.value.trim();
  return text === '' ? Number.NaN : Number(text);
}

function showError(element, result) {
  element.hidden = false;
  element.textContent = `${result.message} (${result.code})`;
}

function renderVat(core) {
  for (const button of document.querySelectorAll('.presets button')) {
    button.setAttribute('aria-pressed', String(button.dataset.bps === $('rate').value.trim()));
  }
  const result = core.vatSplit(readNumber($('gross')), readNumber($('rate')));
  const error = $('vat-error');
  const card = $('vat-result');
  if (!result.ok) {
    for (const id of ['net', 'vat', 'gross-out']) $(id).textContent = '–';
    for (const id of ['net-major', 'vat-major', 'gross-major']) $(id).textContent = '';
    $('bar-net').style.flexGrow = '1';
    $('bar-vat').style.flexGrow = '0';
    card.dataset.state = 'error';
    showError(error, result);
    return;
  }
  const { grossMinor, netMinor, vatMinor } = result.value;
  $('net').textContent = grouped.format(netMinor);
  $('vat').textContent = grouped.format(vatMinor);
  $('gross-out').textContent = grouped.format(grossMinor);
  $('net-major').textContent = asMajor(netMinor);
  $('vat-major').textContent = asMajor(vatMinor);
  $('gross-major').textContent = asMajor(grossMinor);
  $('bar-net').style.flexGrow = String(netMinor || (grossMinor === 0 ? 1 : 0));
  $('bar-vat').style.flexGrow = String(vatMinor);
  card.dataset.state = 'ok';
  error.hidden = true;
  error.textContent = '';
}

function renderBusinessDate(core) {
  const local = $('local-time').value;
  const cutoff = readNumber($('cutoff'));
  const result = core.businessDate(local, cutoff);
  const error = $('date-error');
  const note = $('business-date-note');
  if (!result.ok) {
    $('business-date').textContent = '–';
    note.textContent = '';
    showError(error, result);
    return;
  }
  $('business-date').textContent = result.value;
  const calendarDay = local.slice(0, 10);
  const hh = String(cutoff).padStart(2, '0');
  note.textContent =
    result.value === calendarDay
      ? `At or after ${hh}:00, so it counts for the same calendar day.`
      : `Before ${hh}:00, so it counts for the previous business day.`;
  error.hidden = true;
  error.textContent = '';
}

async function main() {
  const status = $('core-status');
  let core;
  try {
    core = await loadPlatformCore();
  } catch (error) {
    status.dataset.state = 'error';
    status.textContent = `The platform core could not be loaded: ${error.message}`;
    return;
  }
  status.dataset.state = 'ready';
  status.textContent = 'Platform core loaded: results update as you type.';

  const vat = () => renderVat(core);
  const date = () => renderBusinessDate(core);
  for (const id of ['gross', 'rate']) $(id).addEventListener('input', vat);
  for (const id of ['local-time', 'cutoff']) $(id).addEventListener('input', date);
  for (const form of ['vat-form', 'date-form']) $(form).addEventListener('submit', (event) => event.preventDefault());
  for (const button of document.querySelectorAll('.presets button')) {
    button.addEventListener('click', () => {
      $('rate').value = button.dataset.bps;
      vat();
    });
  }
  vat();
  date();
  document.body.dataset.ready = 'true';
}

main();
