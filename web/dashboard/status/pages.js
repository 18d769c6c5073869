// Status › Pages: the one page module of the product, which picks the screen from the rest of the address:
// none: the list of status pages; {pageId}[/{tab}]: a page with its tabs; {pageId}/checks/{componentId}/
// {checkId | new}: a check with its recent results, or a new check.
export default async function statusPages(ctx) {
  const [pageId, second, componentId, checkId] = ctx.route.rest;
  if (!pageId) return (await import('./page_list.js')).default(ctx);
  if (second === 'checks' && componentId && checkId) return (await import('./check_view.js')).default(ctx, { pageId, componentId, checkId });
  return (await import('./page_view.js')).default(ctx, { pageId, tab: second ?? null });
}
