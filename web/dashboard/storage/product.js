// The storage product of the dashboard (docs/storage-api.md): buckets, and each bucket's media grid with
// upload, filters and sorting, under the company's quota. Routes: /dashboard/{slug}/storage/buckets and
// /dashboard/{slug}/storage/buckets/{bucket}.
import { icons } from '../kit/icons.js';
import { storageTexts } from './texts.js';

export default {
  id: 'storage',
  title: 'storage.product',
  texts: storageTexts,
  styles: '/web/dashboard/storage/storage.css',
  pages: [{ id: 'buckets', title: 'storage.nav.buckets', icon: icons.project, load: () => import('./buckets.js') }],
};
