// The dashboard's entry module: the products it shows, in navigation order. A product adds itself here
// with its descriptor module (see kit/shell.js for the descriptor and the page contract).
import { startDashboard } from './kit/shell.js';
import auth from './auth/product.js';
import company from './company/product.js';
import mail from './mail/product.js';
import status from './status/product.js';
import storage from './storage/product.js';
import vault from './vault/product.js';

startDashboard({ products: [mail, auth, status, storage, vault, company] });
