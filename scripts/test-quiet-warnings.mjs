// Loaded into every test process by scripts/test.mjs unless SKILLMOUNT_TEST_VERBOSE=1: the
// warnings skillmount prints on the console by default (`[skillmount] …`, from apps that the tests
// build without an onWarning or a logger on purpose) are expected, and would repeat in every run.
// A test that checks what is printed replaces console.warn itself, and sees every line.
const warn = console.warn;
console.warn = (...args) => {
  if (typeof args[0] === 'string' && args[0].startsWith('[skillmount] ')) return;
  warn(...args);
};
