// The till's icon drawings for kit/dom.js's icon() (24x24 stroked paths, in the style of kit/icons.js).
export { icons as kitIcons } from '../dashboard/kit/icons.js';

export const tillIcons = {
  tables: ['M4 4h7v7H4z', 'M13 4h7v7h-7z', 'M4 13h7v7H4z', 'M13 13h7v7h-7z'],
  receipt: ['M6 3h12v18l-3-2l-3 2l-3-2l-3 2z', 'M9 8h6', 'M9 12h6', 'M9 16h3'],
  sync: ['M20 11a8 8 0 0 0-14.3-4.5', 'M4 4v4h4', 'M4 13a8 8 0 0 0 14.3 4.5', 'M20 20v-4h-4'],
  gear: ['M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z', 'M12 2v3', 'M12 19v3', 'M2 12h3', 'M19 12h3', 'M4.9 4.9l2.1 2.1', 'M17 17l2.1 2.1', 'M4.9 19.1L7 17', 'M17 7l2.1-2.1'],
  cash: ['M3 7h18v10H3z', 'M12 10a2 2 0 1 0 0 4a2 2 0 1 0 0-4z', 'M6 10v4', 'M18 10v4'],
  card: ['M3 6h18v12H3z', 'M3 10h18', 'M7 15h4'],
  wifiOff: ['M2 2l20 20', 'M8.5 16.5a5 5 0 0 1 7 0', 'M5 13a10 10 0 0 1 5.2-2.8', 'M19 13a10 10 0 0 0-2.4-1.8', 'M12 20h.01'],
  wifi: ['M8.5 16.5a5 5 0 0 1 7 0', 'M5 13a10 10 0 0 1 14 0', 'M2 9.5a15 15 0 0 1 20 0', 'M12 20h.01'],
  minus: ['M5 12h14'],
  counter: ['M3 10h18', 'M5 10V6h14v4', 'M6 10v10', 'M18 10v10'],
  lock: ['M5 11h14v10H5z', 'M8 11V7.5a4 4 0 0 1 8 0V11'],
  board: ['M3 4h18v14H3z', 'M8 21h8', 'M12 18v3', 'M7 8h4', 'M7 12h6'],
};
