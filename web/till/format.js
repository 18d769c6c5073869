// Money and rates as the till shows them. Amounts are integers in minor units (the API's); the till shows
// them with two decimals in the page's locale and no currency sign (the API names no currency).
const formatters = new Map();

function formatter(locale) {
  if (!formatters.has(locale)) {
    formatters.set(locale, new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  }
  return formatters.get(locale);
}

export function money(minor, locale) {
  return formatter(locale).format(minor / 100);
}

// 1000 bps -> "10%" (en) or "%10" (tr); 150 -> "1.5%".
export function rate(bps, locale) {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(bps / 10000);
}

// Digits typed on the keypad ("1250") as minor units (1250 = 12.50).
export function minorFromDigits(digits) {
  const clean = String(digits).replace(/\D/g, '').replace(/^0+/, '');
  return clean ? Number.parseInt(clean.slice(0, 15), 10) : 0;
}
