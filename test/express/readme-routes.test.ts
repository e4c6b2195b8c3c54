/** The Express README's own-route examples, run as written: see `readmeRouteSuite`. */
import { readmeRouteSuite } from '../support/own-route-checks.js';

readmeRouteSuite('express');
