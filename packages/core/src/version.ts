/** This package's version, reported as serverInfo.version by servers skillmount creates. */
export const VERSION = '0.1.0';
