// Every address of the status dashboard API (docs/status-api.md) in one place: the screens never build a
// path themselves, so a route that moves is one edit here. All are relative to the company's dashboard base
// `/api/v1/dashboard/companies/{slug}`; each segment is percent-encoded.
//
// Pages, components, checks and results (edge/status/*_routes.cpp), incidents and maintenance windows
// (docs/status-incidents.md), subscribers (docs/status-subscribers.md), restart targets (docs/status-restart.md)
// and the SLA report (docs/status-api.md) are the server's routes.

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

    // query: {state: 'active' | 'resolved', limit, skip}
    incidents: (pageId) => `${page(pageId)}/incidents`,
    incident: (pageId, incidentId) => `${page(pageId)}/incidents/${enc(incidentId)}`,
    incidentUpdates: (pageId, incidentId) => `${page(pageId)}/incidents/${enc(incidentId)}/updates`,
    // query: {status: 'scheduled' | 'in_progress' | 'completed' | 'cancelled', limit, skip}
    maintenances: (pageId) => `${page(pageId)}/maintenances`,
    maintenance: (pageId, id) => `${page(pageId)}/maintenances/${enc(id)}`,
    // action: start | complete | cancel
    maintenanceAction: (pageId, id, action) => `${page(pageId)}/maintenances/${enc(id)}/${enc(action)}`,
    subscribers: (pageId) => `${page(pageId)}/subscribers`,
    subscriber: (pageId, id) => `${page(pageId)}/subscribers/${enc(id)}`,
    subscriberDeliveries: (pageId, id) => `${page(pageId)}/subscribers/${enc(id)}/deliveries`,

    // query: {checkId, limit, skip}
    restartTargets: (pageId) => `${page(pageId)}/restart-targets`,
    restartTarget: (pageId, id) => `${page(pageId)}/restart-targets/${enc(id)}`,
    restartTargetTest: (pageId, id) => `${page(pageId)}/restart-targets/${enc(id)}/test`,
    // query: {limit} (1..1000, default 50); newest first
    restartTargetFirings: (pageId, id) => `${page(pageId)}/restart-targets/${enc(id)}/firings`,
    // query: {from, to (YYYY-MM-DD, UTC days, both included), format: 'json' | 'csv'}
    sla: (pageId) => `${page(pageId)}/sla`,

    // The public side, for links out of the dashboard.
    publicPage: (pageSlug) => `/p/${enc(pageSlug)}`,
    snapshot: (pageSlug) => `/api/v1/status/${enc(pageSlug)}`,
  };
}
