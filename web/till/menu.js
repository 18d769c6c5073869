// The menu and tables of the paired branch, kept in IndexedDB so the till works without the network. The
// menu belongs to the company (every branch shares it); the tables are the branch's own.
import { get, put } from './db.js';

// Fetches products (active only), option groups, categories, the branch's tables and the branch, and stores
// them as one record. Answers the record, or the first refused answer ({ok: false, ...}); a NetworkError
// passes through (the stored menu stays as it was).
export async function refreshMenu(db, client, branchId) {
  const [products, optionGroups, categories, tables, branch] = await Promise.all([
    client.all('/products', { activeOnly: 'true' }),
    client.all('/option-groups'),
    client.all('/categories'),
    client.all('/tables', { branchId }),
    client.get(`/branches/${encodeURIComponent(branchId)}`),
  ]);
  for (const answer of [products, optionGroups, categories, tables, branch]) if (!answer.ok) return answer;
  const menu = {
    products: products.data,
    optionGroups: optionGroups.data,
    categories: categories.data,
    tables: tables.data,
    branch: branch.data,
    fetchedAt: new Date().toISOString(),
  };
  await put(db, 'menu', menu, 'menu');
  return { ok: true, menu };
}

export const loadMenu = (db) => get(db, 'menu', 'menu');

// A product's option groups in the product's order (missing ones, deleted since, are left out).
export function groupsOf(menu, product) {
  const byId = new Map((menu?.optionGroups ?? []).map((g) => [g.id, g]));
  return (product.optionGroupIds ?? []).map((id) => byId.get(id)).filter(Boolean);
}

// The products by category, categories by name, uncategorized last: [{id, name, products}].
export function menuSections(menu) {
  const names = new Map((menu?.categories ?? []).map((c) => [c.id, c.name]));
  const sections = new Map();
  for (const product of menu?.products ?? []) {
    if (product.active === false) continue;
    const id = product.categoryId && names.has(product.categoryId) ? product.categoryId : '';
    if (!sections.has(id)) sections.set(id, { id, name: names.get(id) ?? '', products: [] });
    sections.get(id).products.push(product);
  }
  return [...sections.values()].sort((a, b) => (a.id === '') - (b.id === '') || a.name.localeCompare(b.name));
}

export function tableName(menu, tableId) {
  if (!tableId) return null;
  return (menu?.tables ?? []).find((t) => t.id === tableId)?.name ?? null;
}
