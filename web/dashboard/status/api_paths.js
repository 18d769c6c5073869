// Every address of the status dashboard API (docs/status-api.md) in one place: the screens never build a
// path themselves, so a route that moves is one edit here. All are relative to the company's dashboard base
// `/api/v1/dashboard/companies/{slug}`; each segment is percent-encoded.
//
// Pages, components, checks and results exist on this branch (edge/status/*_routes.cpp). Incidents,
// maintenance windows, restart targets, subscribers and the SLA report are being built elsewhere: their
// paths below are the intended ones (docs/status-dashboard.md, "APIs still to come"); a screen whose API
// answers 404 `not_found` says "not available" instead of failing.

const enc = encodeURIComponent;

export function statusPaths(companySlug) {
  const base = `/api/v1/dashboard/companies/${enc(companySlug)}`;
  const page = (pageId) => `${base}/pages/${enc(pageId)}`;
  const component = (pageId, componentId) => `${page(pageId)}/components/${enc(componentId)}`;
  return {
    pages: () => `${base}/pages`,
    page,
    components: (pageId) => `${page(pageId)}/components`,
    component,
    checks: (pageId, componentId) => `${component(pageId, componentId)}/checks`,
    check: (pageId, componentId, checkId) => `${component(pageId, componentId)}/checks/${enc(checkId)}`,
    checkResults: (pageId, componentId, checkId) => `${component(pageId, componentId)}/checks/${enc(checkId)}/results`,

    // ---- intended shapes, not final (see the comment above)
    incidents: (pageId) => `${page(pageId)}/incidents`,
    incident: (pageId, incidentId) => `${page(pageId)}/incidents/${enc(incidentId)}`,
    incidentUpdates: (pageId, incidentId) => `${page(pageId)}/incidents/${enc(incidentId)}/updates`,
    maintenances: (pageId) => `${page(pageId)}/maintenances`,
    maintenance: (pageId, id) => `${page(pageId)}/maintenances/${enc(id)}`,
    // action: start | complete | cancel
    maintenanceAction: (pageId, id, action) => `${page(pageId)}/maintenances/${enc(id)}/${enc(action)}`,
    restartTargets: (pageId) => `${page(pageId)}/restart-targets`,
    restartTarget: (pageId, id) => `${page(pageId)}/restart-targets/${enc(id)}`,
    restartTargetTest: (pageId, id) => `${page(pageId)}/restart-targets/${enc(id)}/test`,
    subscribers: (pageId) => `${page(pageId)}/subscribers`,
    subscriber: (pageId, id) => `${page(pageId)}/subscribers/${enc(id)}`,
    // query: {from, to, format: 'csv' | undefined}
    sla: (pageId) => `${page(pageId)}/sla`,

    // The public side, for links out of the dashboard.
    publicPage: (pageSlug) => `/p/${enc(pageSlug)}`,
    snapshot: (pageSlug) => `/api/v1/status/${enc(pageSlug)}`,
  };
}
