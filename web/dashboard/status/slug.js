// A page slug proposed from its name: Turkish letters to their ASCII base, anything else to single dashes.
// Only a proposal: the rule (invalid_slug) and uniqueness (slug_taken) are the server's.
export function slugFrom(name) {
  const ascii = name
    .toLocaleLowerCase('tr-TR')
    .replace(/[ıİ]/g, 'i')
    .replace(/ş/g, 's')
    .replace(/ğ/g, 'g')
    .replace(/ü/g, 'u')
    .replace(/ö/g, 'o')
    .replace(/ç/g, 'c')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  return ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
}
